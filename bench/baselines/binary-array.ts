/**
 * One-dimensional PostgreSQL arrays in binary wire format (what `array_recv` reads). node-postgres sends a Buffer
 * parameter in binary, so `$1::bytea[]` given `byteaArray(bodies)` reaches the server as the bodies' own bytes:
 * no hex text twice their size for bytea, no quoting and escaping of JSON text inside an array literal for jsonb.
 */
const BYTEA_OID = 17;
const JSONB_OID = 3802;
/** jsonb's binary input: this version byte, then the JSON text in UTF-8. */
const JSONB_VERSION = 1;

function binaryArray(elementOid: number, elements: Buffer[], prefix?: number): Buffer {
  const prefixBytes = prefix === undefined ? 0 : 1;
  const size = elements.reduce((sum, element) => sum + 4 + prefixBytes + element.byteLength, 20);
  const wire = Buffer.allocUnsafe(size);
  // Header: dimensions, has-nulls flag, element type, then the one dimension's length and lower bound.
  let offset = wire.writeInt32BE(1, 0);
  offset = wire.writeInt32BE(0, offset);
  offset = wire.writeInt32BE(elementOid, offset);
  offset = wire.writeInt32BE(elements.length, offset);
  offset = wire.writeInt32BE(1, offset);
  for (const element of elements) {
    offset = wire.writeInt32BE(prefixBytes + element.byteLength, offset);
    if (prefix !== undefined) offset = wire.writeUInt8(prefix, offset);
    offset += element.copy(wire, offset);
  }
  return wire;
}

export const byteaArray = (values: Buffer[]): Buffer => binaryArray(BYTEA_OID, values);

/** Each element is a JSON document's UTF-8 text. */
export const jsonbArray = (documents: Buffer[]): Buffer => binaryArray(JSONB_OID, documents, JSONB_VERSION);
