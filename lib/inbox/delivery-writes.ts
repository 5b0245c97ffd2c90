import { byteaArrayPieces, jsonbArray, textArray } from "@/lib/db/binary-array";
import { dbPool } from "@/lib/db/client";
import { piecewiseQuery, type PiecewiseParameter } from "@/lib/db/piecewise-query";
import { isDatabaseUnavailable } from "@/lib/errors";
import { retireBodies } from "./body-slabs";
import { ENDPOINT_STATE } from "./ingest-endpoints";

/** One delivery ready to be written. */
export interface DeliveryRowInput {
  id: string;
  workspaceId: string;
  endpointId: string;
  /** The endpoint settings the delivery was checked against (`IngestEndpoint.state`). */
  endpointState: string;
  body: Buffer;
  contentType: string | null;
  /** Headers as JSON text in UTF-8. */
  headers: Buffer;
  sourceIp: string;
  query: string;
  dedupKey: string | null;
  /** The signature check as JSON text in UTF-8, or null. */
  signature: Buffer | null;
  eventType: string | null;
  /** The endpoint forwards its deliveries (`IngestEndpoint.forwarding`, part of `endpointState`). */
  forwarding: boolean;
}

/**
 * What became of a row: stored; a retry of the stored delivery `deliveryId` (its dedup claim was taken); `stale`, not
 * stored because its endpoint is no longer enabled with the settings the row was checked against; or an error.
 */
export type WriteOutcome = { deliveryId: string; duplicate: boolean } | { stale: true } | { error: unknown };

/** One value a row gives the INSERT: its name in the statement, its type, and where the row keeps it. */
type Input =
  | { name: string; type: "text"; of: (row: DeliveryRowInput) => string | null }
  | { name: string; type: "bytea"; of: (row: DeliveryRowInput) => Buffer }
  | { name: string; type: "jsonb"; of: (row: DeliveryRowInput) => Buffer | null };

// One statement for the whole batch: each column one binary array parameter (lib/db/binary-array.ts), so the
// statement text and its plan are the same whatever the batch size, and no value is re-encoded as text. The arrays are
// unnested in the select list, which streams the rows in array order. `unnest(…) WITH ORDINALITY` in FROM copied
// every row (bodies included) into a tuplestore first, and the join and ORDER BY over it copied them again, spilling
// to disk past work_mem: PostgreSQL spent 7.3 ms of CPU on a 1 MiB body that way, 6.2 ms streamed. A batch of one row
// (every body near 1 MiB goes alone) takes plain parameters instead: unnesting a one-element array still cost
// PostgreSQL 0.7–1.5 ms more per 1 MiB body than a single-row INSERT's parameter (8.2–8.6 ms against 6.7–7.2 ms).
const INPUTS = [
  { name: "id", type: "text", of: (row) => row.id },
  { name: "workspace_id", type: "text", of: (row) => row.workspaceId },
  { name: "endpoint_id", type: "text", of: (row) => row.endpointId },
  { name: "endpoint_state", type: "text", of: (row) => row.endpointState },
  { name: "raw_body", type: "bytea", of: (row) => row.body },
  { name: "content_type", type: "text", of: (row) => row.contentType },
  { name: "headers", type: "jsonb", of: (row) => row.headers },
  { name: "source_ip", type: "text", of: (row) => row.sourceIp },
  { name: "query", type: "text", of: (row) => row.query },
  { name: "dedup_key", type: "text", of: (row) => row.dedupKey },
  { name: "signature", type: "jsonb", of: (row) => row.signature },
  { name: "event_type", type: "text", of: (row) => row.eventType },
] as const satisfies readonly Input[];

type InputName = (typeof INPUTS)[number]["name"];

type Shape = "batch" | "single";

/** The rows, with the columns `names`: unnested from one array parameter each, or one row of plain parameters. */
function rowsOf(shape: Shape, names: InputName[]): string {
  const columns = names.map((name) => {
    const index = INPUTS.findIndex((input) => input.name === name);
    const parameter = `$${index + 1}::${INPUTS[index]!.type}`;
    return shape === "batch" ? `unnest(${parameter}[]) AS ${name}` : `${parameter} AS ${name}`;
  });
  return `(SELECT ${columns.join(", ")})`;
}

// Each row's endpoint is re-checked by a subquery per row (an index lookup), which keeps the order.
const ENDPOINT_IS_AS_SEEN = (row: string) => `${row}.endpoint_state = (SELECT ${ENDPOINT_STATE} FROM webhook_endpoints e
  WHERE e.id = ${row}.endpoint_id AND e.workspace_id = ${row}.workspace_id AND e.enabled)`;

// A row with a sender's message id is stored only if it takes the endpoint's claim on that id first. Claims live in a
// table of their own (the partitioned deliveries table cannot hold a unique key without the receipt time: migration
// 20261128060000), written by the same statement, so a claim exists exactly when its delivery does. Only the five
// small columns are read here; the bodies are streamed once, by the INSERT below.
const claimed = (shape: Shape) => `claimed AS (
  INSERT INTO delivery_dedup_claims (workspace_id, webhook_endpoint_id, dedup_key, delivery_id, delivery_created_at)
  SELECT c.workspace_id, c.endpoint_id, c.dedup_key, c.id::uuid, now()
  FROM ${rowsOf(shape, ["id", "workspace_id", "endpoint_id", "endpoint_state", "dedup_key"])} AS c
  WHERE c.dedup_key IS NOT NULL AND ${ENDPOINT_IS_AS_SEEN("c")}
  ON CONFLICT DO NOTHING
  RETURNING delivery_id)`;

const insertDeliveries = (shape: Shape) => `
  INSERT INTO webhook_deliveries
    (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip, query, size_bytes, dedup_key, signature,
     event_type)
  SELECT r.id::uuid, r.workspace_id, r.endpoint_id, r.raw_body, r.content_type, r.headers, r.source_ip, r.query,
         octet_length(r.raw_body), r.dedup_key, r.signature, r.event_type
  FROM ${rowsOf(
    shape,
    INPUTS.map((input) => input.name),
  )} AS r
  WHERE CASE WHEN r.dedup_key IS NULL THEN ${ENDPOINT_IS_AS_SEEN("r")}
             -- The claim was taken only if the endpoint was as seen: not looked up twice.
             ELSE r.id::uuid IN (SELECT delivery_id FROM claimed) END`;

// The same INSERT when a row's endpoint forwards: the batch's forwards (one per stored delivery and enabled
// destination) go in with it, in the same statement and commit, and their trigger queues their jobs (migration
// 20261128030000). A batch without such a row never pays for the join.
const insertWithForwards = (shape: Shape) => `
  WITH ${claimed(shape)},
  stored AS (${insertDeliveries(shape)} RETURNING id, workspace_id, webhook_endpoint_id, created_at),
  forwards AS (
    INSERT INTO delivery_forwards (workspace_id, delivery_id, destination_id, delivery_created_at)
    SELECT s.workspace_id, s.id, d.id, s.created_at
    FROM stored s
    JOIN webhook_destinations d
      ON d.webhook_endpoint_id = s.webhook_endpoint_id AND d.workspace_id = s.workspace_id AND d.enabled)
  SELECT count(*)::int AS written FROM stored`;

const STATEMENTS = {
  batch: { plain: `WITH ${claimed("batch")} ${insertDeliveries("batch")}`, forwards: insertWithForwards("batch") },
  single: { plain: `WITH ${claimed("single")} ${insertDeliveries("single")}`, forwards: insertWithForwards("single") },
};

// Only when the INSERT wrote fewer rows than it was given (its command tag says how many): which rows were stored,
// and for the others whether their endpoint is still as they saw it and which delivery holds their claim.
const SETTLE = `
  SELECT r.ord::int AS ord, s.id IS NOT NULL AS stored, e.id IS NOT NULL AS current, d.delivery_id::text AS first
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
       WITH ORDINALITY AS r (id, workspace_id, endpoint_id, endpoint_state, dedup_key, ord)
  LEFT JOIN webhook_deliveries s
    ON s.id = r.id::uuid AND s.workspace_id = r.workspace_id AND s.created_at > now() - interval '1 hour' -- today's partition
  LEFT JOIN webhook_endpoints e
    ON e.id = r.endpoint_id AND e.workspace_id = r.workspace_id AND e.enabled AND ${ENDPOINT_STATE} = r.endpoint_state
  LEFT JOIN delivery_dedup_claims d
    ON d.workspace_id = r.workspace_id AND d.webhook_endpoint_id = r.endpoint_id AND d.dedup_key = r.dedup_key`;

const JSONB_VERSION = Buffer.of(1);
const textValue = (value: string | null): PiecewiseParameter => (value === null ? null : [Buffer.from(value, "utf8")]);
const jsonbValue = (json: Buffer | null): PiecewiseParameter => (json === null ? null : [JSONB_VERSION, json]);

/** One row's parameters, in INPUTS order, each in binary (the body referenced, not copied). */
function singleParameters(row: DeliveryRowInput): PiecewiseParameter[] {
  return INPUTS.map((input) => {
    switch (input.type) {
      case "text":
        return textValue(input.of(row));
      case "bytea":
        return [input.of(row)];
      case "jsonb":
        return jsonbValue(input.of(row));
    }
  });
}

/** A batch's parameters, in INPUTS order: one binary array per column. */
function batchParameters(rows: DeliveryRowInput[]): PiecewiseParameter[] {
  return INPUTS.map((input) => {
    switch (input.type) {
      case "text":
        return [textArray(rows.map(input.of))];
      case "bytea":
        return byteaArrayPieces(rows.map(input.of));
      case "jsonb":
        return [jsonbArray(rows.map(input.of))];
    }
  });
}

/**
 * The INSERT of `rows`, in the order given; bodies go to the socket from the buffers they were read into. A prepared
 * statement: planning it alone took PostgreSQL 0.10–0.15 ms a batch, as much as writing 5 rows of 1 KB. Prepared,
 * it is parsed once per connection and, its plan depending on no value, soon planned once too.
 */
export function deliveryInsert(rows: DeliveryRowInput[]): {
  name: string;
  text: string;
  parameters: PiecewiseParameter[];
} {
  const shape: Shape = rows.length === 1 ? "single" : "batch";
  const forwarding = rows.some((row) => row.forwarding);
  return {
    name: `ingest_${shape}${forwarding ? "_with_forwards" : ""}`,
    text: STATEMENTS[shape][forwarding ? "forwards" : "plain"],
    parameters: shape === "single" ? singleParameters(rows[0]!) : batchParameters(rows),
  };
}

function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: string }).code === "23503";
}

/** Rows sorted by their dedup claim (endpoint, then message id; rows without one first). */
function byClaim(rows: DeliveryRowInput[]): DeliveryRowInput[] {
  const keyed = rows.map((row) => ({
    row,
    key: row.dedupKey === null ? "" : `${row.endpointId}\u0000${row.dedupKey}`,
  }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map(({ row }) => row);
}

/** A row not stored is a retry when its endpoint is unchanged and its claim is held; otherwise it is checked again. */
async function settledOutcomes(rows: DeliveryRowInput[]): Promise<WriteOutcome[]> {
  const { rows: found } = await dbPool().query<{
    ord: number;
    stored: boolean;
    current: boolean;
    first: string | null;
  }>(SETTLE, [
    textArray(rows.map((row) => row.id)),
    textArray(rows.map((row) => row.workspaceId)),
    textArray(rows.map((row) => row.endpointId)),
    textArray(rows.map((row) => row.endpointState)),
    textArray(rows.map((row) => row.dedupKey)),
  ]);
  const byOrd = new Map(found.map((row) => [row.ord, row]));
  return rows.map((input, index) => {
    const row = byOrd.get(index + 1);
    if (row?.stored) return { deliveryId: input.id, duplicate: false };
    return row?.current && row.first ? { deliveryId: row.first, duplicate: true } : { stale: true };
  });
}

/**
 * Writes rows with distinct dedup claims in one INSERT: one statement, one transaction, one commit (and one pass
 * through the NOTIFY queue's commit lock for the whole batch). If one row spoils the statement (its endpoint was
 * deleted a moment ago, say), every row is written again on its own, so only that row's sender gets the error.
 */
async function writeRows(rows: DeliveryRowInput[]): Promise<WriteOutcome[]> {
  // Rows go in in dedup-claim order, so two batches in flight that carry the same claims (retries) wait for each other
  // instead of deadlocking.
  const ordered = rows.length > 1 ? byClaim(rows) : rows;
  let written: number | null;
  try {
    const insert = deliveryInsert(ordered);
    const result = await piecewiseQuery<{ written?: number }>(dbPool(), insert.text, insert.parameters, insert.name);
    written = result.command === "INSERT" ? result.rowCount : (result.rows[0]?.written ?? null);
  } catch (error) {
    // The statement failed, perhaps mid-send (a timeout): its bodies' slabs may still be read by the socket.
    retireBodies(rows.map((row) => row.body));
    if (rows.length > 1 && !isDatabaseUnavailable(error))
      return Promise.all(rows.map(async (row) => (await writeRows([row]))[0]!));
    // A row whose endpoint was deleted between the join and the foreign-key check: checked again, then not found.
    return rows.map(() => (isForeignKeyViolation(error) ? { stale: true } : { error }));
  }
  if (written === rows.length) return rows.map((row) => ({ deliveryId: row.id, duplicate: false }));
  return settledOutcomes(rows).catch((error: unknown) => rows.map(() => ({ error })));
}

/**
 * One group-commit batch. Requests in it that repeat the dedup claim of an earlier request in it (same endpoint) are
 * not written: they answer with that request's delivery, as they would have after waiting for its commit.
 */
export async function flushDeliveries(rows: DeliveryRowInput[]): Promise<WriteOutcome[]> {
  const leaders: DeliveryRowInput[] = [];
  const leaderOf = new Map<string, number>();
  const slots = rows.map((row) => {
    const key = row.dedupKey === null ? null : `${row.endpointId}\u0000${row.dedupKey}`;
    const leader = key === null ? undefined : leaderOf.get(key);
    if (leader !== undefined) return { leader, follower: true };
    leaders.push(row);
    if (key !== null) leaderOf.set(key, leaders.length - 1);
    return { leader: leaders.length - 1, follower: false };
  });
  const written = await writeRows(leaders);
  return slots.map(({ leader, follower }) => {
    const outcome = written[leader]!;
    return follower && "deliveryId" in outcome ? { deliveryId: outcome.deliveryId, duplicate: true } : outcome;
  });
}
