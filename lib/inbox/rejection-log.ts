import { REJECTION_RING_SIZE, type RejectionReason } from "@/lib/contracts/rejections";
import { dbPool } from "@/lib/db/client";
import { env } from "@/lib/env";
import { createId } from "@/lib/ids";
import { ingestEndpoint, isEndpointId } from "./ingest-endpoints";
import {
  createRejectionSampler,
  type EndpointRef,
  type RejectionSampler,
  type SkippedCount,
} from "./rejection-sampler";

/*
 * The log of ingest requests an endpoint refused (issue #22), written off the answer's path: a refusal is handed over
 * and the answer goes out without waiting. Per endpoint and process, a token bucket (./rejection-sampler.ts) lets a
 * few a second through to be recorded; the rest are counted, and their counts written within a second. Recordings
 * wait in one bounded list for one writer that takes them all in one statement; when the list is full a refusal is
 * only counted, and when the database fails the batch is dropped: memory stays bounded whatever arrives.
 *
 * Refusals for unknown endpoint ids are only counted, in this process (`unknownEndpointRequests`): storing them would
 * let anyone fill the database, and counting them in the database would cost a write where ingest costs a lookup.
 */

/** Recordings an endpoint may save up while it refuses nothing (the bucket's size), beyond REJECTION_LOG_PER_SECOND. */
export const REJECTION_BURST = 5;
/** Endpoints whose sampling is tracked at once per process. */
const TRACKED_ENDPOINTS = 10_000;
/** Recordings waiting to be written, at most; past it a refusal is only counted. */
const MAX_WAITING = 200;
/** Recordings one statement writes at most: no more than the ring's slots, so no slot is written twice in one. */
const MAX_BATCH = REJECTION_RING_SIZE;
/** Endpoint lookups for refusals before the lookup (a method other than POST) running at once, at most. */
const MAX_LOOKUPS = 20;
/** How soon counts of refusals not recorded are written. */
const SKIPPED_FLUSH_MS = 1_000;

/** Why a request was refused: what the sender was answered. */
export interface Refusal {
  status: number;
  reason: RejectionReason;
  message: string;
}

/** What is kept of a refused request, as deliveries keep it. */
export interface RefusedRequest {
  method: string;
  query: string;
  headers: Record<string, string>;
  sourceIp: string;
  /** The first bytes (REJECTION_BODY_BYTES) of what was read of the body; empty when nothing was. */
  bodyHead: Buffer;
  bodyBytesRead: number;
}

interface Recording extends Refusal, RefusedRequest {
  endpoint: EndpointRef;
  id: string;
  at: Date;
}

interface RejectionLog {
  sampler: RejectionSampler;
  waiting: Recording[];
  writing: boolean;
  lookups: number;
  skippedFlush: NodeJS.Timeout | null;
  unknownEndpointRequests: number;
  countingSince: Date;
}

// One per process: the launcher and the route handlers load this module separately.
const LOG_SLOT = Symbol.for("signalbox.rejectionLog");

function rejectionLog(): RejectionLog {
  const holder = globalThis as typeof globalThis & { [LOG_SLOT]?: RejectionLog };
  holder[LOG_SLOT] ??= {
    sampler: createRejectionSampler({
      perSecond: env().REJECTION_LOG_PER_SECOND,
      burst: Math.max(REJECTION_BURST, env().REJECTION_LOG_PER_SECOND),
      maxEndpoints: TRACKED_ENDPOINTS,
    }),
    waiting: [],
    writing: false,
    lookups: 0,
    skippedFlush: null,
    unknownEndpointRequests: 0,
    countingSince: new Date(),
  };
  return holder[LOG_SLOT];
}

/**
 * Notes a refusal of an existing endpoint's request: recorded in the background when sampled, else counted.
 * `request` is called only when it is recorded, at once (before the body's bytes are given back).
 */
export function logRejection(endpoint: EndpointRef, refusal: Refusal, request: () => RefusedRequest): void {
  const log = rejectionLog();
  if (!log.sampler.take(endpoint, Date.now())) return armSkippedFlush(log);
  if (log.waiting.length >= MAX_WAITING) {
    log.sampler.skip(endpoint);
    return armSkippedFlush(log);
  }
  const ref = { id: endpoint.id, workspaceId: endpoint.workspaceId };
  log.waiting.push({ ...refusal, ...request(), endpoint: ref, id: createId("rej"), at: new Date() });
  pump(log);
}

/**
 * Notes a refusal made before the endpoint was looked up (a method other than POST): it is looked up in the
 * background (known endpoints from memory), then logged like any other, or counted as an unknown id.
 */
export function logRejectionOfHookId(hookId: string, refusal: Refusal, request: RefusedRequest): void {
  if (!isEndpointId(hookId)) return countUnknownEndpointRequest();
  const log = rejectionLog();
  if (log.lookups >= MAX_LOOKUPS) return; // a flood of them: neither recorded nor counted
  log.lookups += 1;
  void ingestEndpoint(hookId, { fresh: false })
    .then((endpoint) => (endpoint ? logRejection(endpoint, refusal, () => request) : countUnknownEndpointRequest()))
    .catch(() => {}) // the database is away: dropped
    .finally(() => (log.lookups -= 1));
}

/** Counts a request refused (404) because no endpoint has its id. */
export function countUnknownEndpointRequest(): void {
  rejectionLog().unknownEndpointRequests += 1;
}

/** Ingest requests for unknown endpoint ids this process refused since it started. */
export function unknownEndpointRequests(): { count: number; since: Date } {
  const log = rejectionLog();
  return { count: log.unknownEndpointRequests, since: log.countingSince };
}

function pump(log: RejectionLog): void {
  if (log.writing || log.waiting.length === 0) return;
  log.writing = true;
  const batch = log.waiting.splice(0, MAX_BATCH);
  void writeRecordings(batch)
    .catch(() => {}) // the database is away, or an endpoint went: this batch is dropped
    .finally(() => {
      log.writing = false;
      pump(log);
    });
}

function armSkippedFlush(log: RejectionLog): void {
  if (log.skippedFlush) return;
  log.skippedFlush = setTimeout(() => {
    log.skippedFlush = null;
    const counts = log.sampler.takeSkipped();
    if (counts.length) void writeSkippedCounts(counts).catch(() => {}); // dropped with the database away
  }, SKIPPED_FLUSH_MS);
  log.skippedFlush.unref();
}

/**
 * One statement for a batch: each endpoint's count is raised by its recordings (the row lock orders writers of one
 * endpoint across instances), and each recording takes the next number and writes over the slot that number falls
 * on. Recordings of an endpoint deleted meanwhile are left out by the join, counts are locked in key order (no
 * deadlock between instances).
 */
const WRITE_RECORDINGS = `
WITH input AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::smallint[], $6::text[], $7::text[],
                       $8::text[], $9::text[], $10::jsonb[], $11::text[], $12::bytea[], $13::int[])
    WITH ORDINALITY AS r(workspace_id, endpoint_id, id, created_at, status, reason, message, method, query, headers,
                         source_ip, body_preview, body_bytes_read, ord)
), live AS (
  SELECT input.* FROM input
  JOIN webhook_endpoints e ON e.workspace_id = input.workspace_id AND e.id = input.endpoint_id
), counted AS (
  INSERT INTO webhook_rejection_counts AS c (workspace_id, webhook_endpoint_id, recorded)
  SELECT workspace_id, endpoint_id, count(*) FROM live GROUP BY workspace_id, endpoint_id ORDER BY 1, 2
  ON CONFLICT (workspace_id, webhook_endpoint_id) DO UPDATE SET recorded = c.recorded + excluded.recorded
  RETURNING workspace_id, webhook_endpoint_id, recorded
), numbered AS (
  SELECT live.*, counted.recorded - count(*) OVER w + row_number() OVER (w ORDER BY live.ord) AS sequence
  FROM live
  JOIN counted ON counted.workspace_id = live.workspace_id AND counted.webhook_endpoint_id = live.endpoint_id
  WINDOW w AS (PARTITION BY live.workspace_id, live.endpoint_id)
)
INSERT INTO webhook_rejections AS w (workspace_id, webhook_endpoint_id, slot, id, sequence, created_at, status, reason,
                                     message, method, query, headers, source_ip, body_preview, body_bytes_read)
SELECT workspace_id, endpoint_id, (sequence - 1) % ${REJECTION_RING_SIZE}, id, sequence, created_at, status, reason,
       message, method, query, headers, source_ip, body_preview, body_bytes_read
FROM numbered
ON CONFLICT (workspace_id, webhook_endpoint_id, slot) DO UPDATE SET
  id = excluded.id, sequence = excluded.sequence, created_at = excluded.created_at, status = excluded.status,
  reason = excluded.reason, message = excluded.message, method = excluded.method, query = excluded.query,
  headers = excluded.headers, source_ip = excluded.source_ip, body_preview = excluded.body_preview,
  body_bytes_read = excluded.body_bytes_read`;

async function writeRecordings(batch: Recording[]): Promise<void> {
  await dbPool().query(WRITE_RECORDINGS, [
    batch.map((r) => r.endpoint.workspaceId),
    batch.map((r) => r.endpoint.id),
    batch.map((r) => r.id),
    batch.map((r) => r.at),
    batch.map((r) => r.status),
    batch.map((r) => r.reason),
    batch.map((r) => r.message),
    batch.map((r) => r.method),
    batch.map((r) => r.query),
    batch.map((r) => JSON.stringify(r.headers)),
    batch.map((r) => r.sourceIp),
    batch.map((r) => (r.bodyHead.length ? r.bodyHead : null)),
    batch.map((r) => r.bodyBytesRead),
  ]);
}

const WRITE_SKIPPED_COUNTS = `
INSERT INTO webhook_rejection_counts AS c (workspace_id, webhook_endpoint_id, not_recorded)
SELECT i.workspace_id, i.endpoint_id, i.skipped
FROM unnest($1::text[], $2::text[], $3::bigint[]) AS i(workspace_id, endpoint_id, skipped)
JOIN webhook_endpoints e ON e.workspace_id = i.workspace_id AND e.id = i.endpoint_id
ORDER BY 1, 2
ON CONFLICT (workspace_id, webhook_endpoint_id) DO UPDATE SET not_recorded = c.not_recorded + excluded.not_recorded`;

async function writeSkippedCounts(counts: SkippedCount[]): Promise<void> {
  await dbPool().query(WRITE_SKIPPED_COUNTS, [
    counts.map((c) => c.endpoint.workspaceId),
    counts.map((c) => c.endpoint.id),
    counts.map((c) => c.count),
  ]);
}
