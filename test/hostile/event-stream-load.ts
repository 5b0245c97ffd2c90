import { spawn } from "node:child_process";
import http from "node:http";
import path from "node:path";
import pg from "pg";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { createApiClient } from "@/lib/client/api-client";
import { createWebhookEndpointContract } from "@/lib/contracts/webhooks";

/*
 * What the event-stream load tests share: tenants with keys and an endpoint, event streams opened over node:http (far
 * cheaper to keep a thousand open and drain than fetch's web streams, so the test process stays a fair timer), timed
 * ingests, and the database's committed-transaction count.
 */

export const EVENTS_PATH = "/v1/webhook-endpoints/deliveries/events";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Tenant {
  workspaceId: string;
  keys: string[];
  ingestUrl: string;
}

/** A workspace with `keyCount` live keys and one webhook endpoint, made through the API of `baseUrl`. */
export async function createTenant(baseUrl: string, name: string, keyCount = 1): Promise<Tenant> {
  const workspace = await createWorkspace({ name });
  const keys: string[] = [];
  for (let index = 0; index < keyCount; index += 1)
    keys.push((await createApiKey({ workspaceId: workspace.id, name: `k${index}`, mode: "live" })).key);
  const endpoint = await createApiClient({ baseUrl, apiKey: keys[0]! }).call(createWebhookEndpointContract, {
    body: { name },
  });
  return { workspaceId: workspace.id, keys, ingestUrl: endpoint.data.ingestUrl };
}

export interface OpenStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body so far (an error body, or the stream's text). */
  body: () => string;
  close: () => void;
  /** Settles when the server ends the stream or the connection closes. */
  ended: Promise<void>;
}

/** Opens the workspace's event stream with `key`; resolves once the answer's headers (and, if not 200, body) arrived. */
export function openEventStream(baseUrl: string, key: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${baseUrl}${EVENTS_PATH}`,
      { headers: { authorization: `Bearer ${key}` } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          // Keep the head only: a long-lived stream must not grow the test's memory.
          if (text.length < 4096) text += chunk;
        });
        const stream: OpenStream = {
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: () => text,
          close: () => request.destroy(),
          ended: new Promise((settle) => response.once("close", () => settle())),
        };
        if (response.statusCode === 200) resolve(stream);
        else response.on("end", () => resolve(stream));
      },
    );
    request.on("error", reject);
  });
}

/** Opens `count` streams, `concurrency` at a time, spreading them over `keys` in turn; all must answer 200. */
export async function openEventStreams(
  baseUrl: string,
  keys: string[],
  count: number,
  concurrency = 50,
): Promise<OpenStream[]> {
  const streams: OpenStream[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const stream = await openEventStream(baseUrl, keys[index % keys.length]!);
      if (stream.status !== 200) throw new Error(`Stream ${index} answered ${stream.status}: ${stream.body()}`);
      streams.push(stream);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return streams;
}

/** Opens `count` streams in a process of their own (see stream-holder.ts); resolves with the function that closes them. */
export async function holdEventStreams(baseUrl: string, keys: string[], count: number): Promise<() => Promise<void>> {
  const holder = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "stream-holder.ts"), JSON.stringify({ baseUrl, keys, count })],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise((resolve) => holder.once("exit", resolve));
  const answer = await new Promise<string>((resolve) => {
    let output = "";
    holder.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("\n")) resolve(output.trim());
    });
    void exited.then(() => resolve(output.trim() || "exited"));
  });
  const close = async () => {
    holder.kill("SIGTERM");
    await exited;
  };
  if (answer !== "open") {
    await close();
    throw new Error(`The stream holder says: ${answer}`);
  }
  return close;
}

/**
 * Opens an event stream and drops the connection `dropAfterMs` later, whatever state it reached (headers not yet
 * sent, authentication under way, streaming). Resolves once the socket is closed.
 */
export function connectAndDrop(baseUrl: string, key: string, dropAfterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const request = http.get(`${baseUrl}${EVENTS_PATH}`, { headers: { authorization: `Bearer ${key}` } });
    request.on("response", (response) => response.resume());
    request.on("error", () => {});
    request.on("close", () => resolve());
    setTimeout(() => request.destroy(), dropAfterMs);
  });
}

/** Posts a small JSON delivery; resolves with the time to its answer (ms). Throws unless 200. */
export async function timedIngest(ingestUrl: string, marker: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(ingestUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ marker }),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`Ingest answered ${response.status}`);
  return performance.now() - started;
}

/** The `fraction` quantile (0.5, 0.99) of `values`, nearest rank. */
export function quantile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * Look-ups of API keys so far (index and sequential scans of api_keys): the event streams' revocation checks, when
 * nothing else authenticates. Counted like committedTransactions, after waiting `settleMs`.
 */
export async function apiKeyLookups(databaseUrl: string, settleMs = 1_500): Promise<number> {
  await sleep(settleMs);
  return Number(
    await queryOne(
      databaseUrl,
      "SELECT (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::text FROM pg_stat_user_tables WHERE relname = 'api_keys'",
    ),
  );
}

async function queryOne(databaseUrl: string, sql: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>(sql);
    return Object.values(rows[0]!)[0]!;
  } finally {
    await client.end();
  }
}

/**
 * Transactions committed in the database of `databaseUrl` (pg_stat_database.xact_commit), after waiting `settleMs`
 * for what came before to be counted: a busy backend reports its counts about once a second, but one that went idle
 * less than a second after its last report waits 10 s (PostgreSQL's PGSTAT_IDLE_INTERVAL). After a heavy load that
 * is not to be counted, wait the 10 s.
 */
export async function committedTransactions(databaseUrl: string, settleMs = 1_500): Promise<number> {
  await sleep(settleMs);
  return Number(
    await queryOne(databaseUrl, "SELECT xact_commit::text FROM pg_stat_database WHERE datname = current_database()"),
  );
}
