/**
 * One-dimensional PostgreSQL arrays in binary wire format (what `array_recv` reads). node-postgres sends a Buffer
 * parameter in binary, so `$1::bytea[]` given `byteaArray(bodies)` reaches the server as the bodies' own bytes: no hex
 * text twice their size for bytea, no quoting and escaping inside an array literal for text and jsonb. A whole batch
 * of rows then travels as one parameter per column (`INSERT … SELECT FROM unnest($1, $2, …)`), whatever its length.
 *
 * The `…Pieces` forms leave large elements where they are: the array is a list of buffers whose concatenation is the
 * wire format, small elements packed together, each large one (a webhook body of up to 1 MiB) referenced rather than
 * copied, for a query that writes the pieces to the socket as they are (./piecewise-query.ts).
 */
const TEXT_OID = 25;
const BYTEA_OID = 17;
const JSONB_OID = 3802;
/** jsonb's binary input: this version byte, then the JSON text in UTF-8. */
const JSONB_VERSION = 1;
const HEADER_BYTES = 20;
/** Elements at least this large are referenced, not copied. */
const REFERENCED_BYTES = 64 * 1024;

/**
 * Writes the HEADER_BYTES of an array's header (dimensions, has-nulls flag, element type, then the one dimension's
 * length and lower bound) and answers the offset after it.
 */
function writeHeader(wire: Buffer, hasNulls: number, elementOid: number, length: number): number {
  let offset = wire.writeInt32BE(1, 0);
  offset = wire.writeInt32BE(hasNulls, offset);
  offset = wire.writeInt32BE(elementOid, offset);
  offset = wire.writeInt32BE(length, offset);
  return wire.writeInt32BE(1, offset);
}

function binaryArrayPieces(elementOid: number, elements: (Uint8Array | null)[], prefix?: number): Buffer[] {
  const prefixBytes = prefix === undefined ? 0 : 1;
  // The packed stretches: the header, every length word and the small elements, cut before each referenced element.
  const stretches: number[] = [];
  let stretch = HEADER_BYTES;
  let hasNulls = 0;
  for (const element of elements) {
    stretch += 4;
    if (element === null) {
      hasNulls = 1;
      continue;
    }
    stretch += prefixBytes;
    if (element.byteLength < REFERENCED_BYTES) {
      stretch += element.byteLength;
      continue;
    }
    stretches.push(stretch);
    stretch = 0;
  }
  stretches.push(stretch);

  const pieces: Buffer[] = [];
  let wire = Buffer.allocUnsafe(stretches[0]!);
  let offset = writeHeader(wire, hasNulls, elementOid, elements.length);
  let next = 1;
  for (const element of elements) {
    if (element === null) {
      offset = wire.writeInt32BE(-1, offset);
      continue;
    }
    offset = wire.writeInt32BE(prefixBytes + element.byteLength, offset);
    if (prefix !== undefined) offset = wire.writeUInt8(prefix, offset);
    if (element.byteLength < REFERENCED_BYTES) {
      wire.set(element, offset);
      offset += element.byteLength;
      continue;
    }
    pieces.push(wire, Buffer.from(element.buffer, element.byteOffset, element.byteLength));
    wire = Buffer.allocUnsafe(stretches[next]!);
    next += 1;
    offset = 0;
  }
  if (wire.byteLength > 0) pieces.push(wire);
  return pieces;
}

const whole = (pieces: Buffer[]): Buffer => (pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces));

/** A text[] in one allocation, each string encoded into it where it goes (a batch has hundreds of small strings). */
export function textArray(values: (string | null)[]): Buffer {
  let size = HEADER_BYTES;
  let hasNulls = 0;
  for (const value of values) {
    size += 4;
    if (value === null) hasNulls = 1;
    else size += Buffer.byteLength(value, "utf8");
  }
  const wire = Buffer.allocUnsafe(size);
  let offset = writeHeader(wire, hasNulls, TEXT_OID, values.length);
  for (const value of values) {
    if (value === null) {
      offset = wire.writeInt32BE(-1, offset);
      continue;
    }
    const written = wire.write(value, offset + 4, "utf8");
    wire.writeInt32BE(written, offset);
    offset += 4 + written;
  }
  return wire;
}

export const byteaArrayPieces = (values: Uint8Array[]): Buffer[] => binaryArrayPieces(BYTEA_OID, values);
export const byteaArray = (values: Uint8Array[]): Buffer => whole(byteaArrayPieces(values));

/** Each element is a JSON document's UTF-8 text, or null. */
export const jsonbArray = (documents: (Uint8Array | null)[]): Buffer =>
  whole(binaryArrayPieces(JSONB_OID, documents, JSONB_VERSION));
