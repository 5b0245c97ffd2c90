import pg from "pg";
import type { QueryResult, QueryResultRow } from "pg";

/**
 * A statement whose binary parameters are lists of buffers, written to the connection's socket as they are.
 *
 * node-postgres copies a Buffer parameter three or four times on its way out (into a parameter buffer that grows by
 * reallocation, into the Bind message, into the outgoing buffer). For the ingest INSERT, whose parameters carry
 * webhook bodies of up to 1 MiB, those copies were most of the app's CPU per delivery, and the garbage they left
 * made V8 run a full collection of the framework's heap every few hundred milliseconds. Here the Bind message is
 * written piece by piece into the corked socket (one writev), so a body goes from the request to the socket without
 * being copied in JavaScript. Everything else (Parse, Describe, Execute, Sync, reading the answer, errors, timeouts)
 * is node-postgres's own Query, through its documented submittable interface.
 */

/** A binary parameter: the buffers whose concatenation is its value, or null. */
export type PiecewiseParameter = Buffer[] | null;

/** Copied into one buffer rather than written on their own: each socket write has a fixed cost. */
const PACKED_BYTES = 16 * 1024;

interface QueryInternals {
  text: string;
  name?: string;
  portal: string;
  hasBeenParsed(connection: ConnectionInternals): boolean;
  _getRows(connection: unknown, rows: number | undefined): void;
}

interface ConnectionInternals {
  stream: { write(chunk: Buffer): boolean };
  parse(query: { text: string; name: string }): void;
  describe(message: { type: "P"; name: string }): void;
  submittedNamedStatements: Record<string, string>;
}

const byteLength = (pieces: Buffer[]) => pieces.reduce((sum, piece) => sum + piece.byteLength, 0);

/** The Bind message: unnamed portal, statement `name`, every parameter in binary, every result column as text. */
function bindMessage(name: string, parameters: PiecewiseParameter[]): Buffer[] {
  const statement = Buffer.byteLength(name, "utf8");
  const head = Buffer.allocUnsafe(1 + 4 + 1 + statement + 1 + 2 + 2 + 2);
  const length =
    head.byteLength - 1 + parameters.reduce((sum, pieces) => sum + 4 + (pieces ? byteLength(pieces) : 0), 0) + 2;
  let offset = head.write("B", 0, "latin1");
  offset = head.writeInt32BE(length, offset);
  offset = head.writeUInt8(0, offset); // portal ""
  offset += head.write(name, offset, "utf8");
  offset = head.writeUInt8(0, offset); // end of the statement's name
  offset = head.writeInt16BE(1, offset); // one format code for all parameters:
  offset = head.writeInt16BE(1, offset); // binary
  head.writeInt16BE(parameters.length, offset);
  const message: Buffer[] = [head];
  for (const pieces of parameters) {
    const size = Buffer.allocUnsafe(4);
    size.writeInt32BE(pieces ? byteLength(pieces) : -1, 0);
    message.push(size, ...(pieces ?? []));
  }
  message.push(Buffer.from([0, 0])); // no result format codes: all text
  return message;
}

/** Small pieces joined, large ones left alone: what goes to the socket. */
function packed(pieces: Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  let run: Buffer[] = [];
  const flushRun = () => {
    if (run.length) out.push(run.length === 1 ? run[0]! : Buffer.concat(run));
    run = [];
  };
  for (const piece of pieces) {
    if (piece.byteLength >= PACKED_BYTES) {
      flushRun();
      out.push(piece);
    } else run.push(piece);
  }
  flushRun();
  return out;
}

class PiecewiseQuery extends pg.Query {
  constructor(
    text: string,
    private readonly parameters: PiecewiseParameter[],
    name: string | undefined,
  ) {
    super({ text, name, queryMode: "extended" } as pg.QueryConfig);
  }

  /**
   * node-postgres's Query.prepare (see its source), with the Bind message written here. Runs with the socket corked. A
   * named statement is parsed once per connection, and node-postgres keeps its book of them as for its own queries.
   */
  prepare(connection: ConnectionInternals): void {
    const self = this as unknown as QueryInternals;
    const name = self.name ?? "";
    if (!self.hasBeenParsed(connection)) {
      connection.parse({ text: self.text, name });
      if (name) connection.submittedNamedStatements[name] = self.text;
    }
    for (const piece of packed(bindMessage(name, this.parameters))) connection.stream.write(piece);
    connection.describe({ type: "P", name: self.portal });
    self._getRows(connection, undefined);
  }
}

/**
 * Runs `text` on a connection of `pool` with these parameters, as `pool.query` would; with `name`, as a prepared
 * statement of that name (parsed once per connection, and then planned as PostgreSQL decides for prepared statements).
 */
export async function piecewiseQuery<Row extends QueryResultRow>(
  pool: pg.Pool,
  text: string,
  parameters: PiecewiseParameter[],
  name?: string,
): Promise<QueryResult<Row>> {
  // pg-pool resolves a submittable's result like any query's; its types say it returns the submittable.
  const result: unknown = pool.query(new PiecewiseQuery(text, parameters, name));
  return (await result) as QueryResult<Row>;
}
