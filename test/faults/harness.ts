import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { expect } from "vitest";
import type { RunningApp } from "@/test/app-server";
import type { LoadConfig, LoadResult } from "./ingest-load";

/*
 * What the fault tests share: a sender under load in its own process (ingest-load.ts), the check that every 200 it
 * got is in the database exactly as sent, killing a process tree with SIGKILL, and acknowledging what arrived.
 */

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export interface Load {
  runId: string;
  /** Every request finished so far (a line being written at this instant is left for the next read). */
  results: () => Promise<LoadResult[]>;
  /** Polls the results until `done` holds; throws after `timeoutMs` with `what` and a summary. */
  waitFor: (what: string, done: (results: LoadResult[]) => boolean, timeoutMs?: number) => Promise<LoadResult[]>;
  /** Asks the sender to stop (SIGTERM: in-flight requests finish, bounded by their timeout) and returns every result. */
  stop: () => Promise<LoadResult[]>;
  process: ChildProcess;
}

/** Starts the sender; `urls` are ingest URLs. Defaults: 8 at a time, a 10 s timeout, at most 20,000 requests. */
export async function startLoad(
  urls: string[],
  options: Partial<Omit<LoadConfig, "urls" | "out" | "runId">> = {},
): Promise<Load> {
  const folder = await mkdtemp(path.join(tmpdir(), "signalbox-load-"));
  const runId = `run${randomBytes(5).toString("hex")}`;
  const config: LoadConfig = {
    urls,
    out: path.join(folder, "results.jsonl"),
    runId,
    concurrency: 8,
    maxRequests: 20_000,
    timeoutMs: 10_000,
    pauseAfterFailureMs: 250,
    ...options,
  };
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "test", "faults", "ingest-load.ts"), JSON.stringify(config)],
    {
      cwd: ROOT,
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const results = async (): Promise<LoadResult[]> => {
    const text = await readFile(config.out, "utf8").catch(() => "");
    const lines = text.split("\n");
    lines.pop(); // empty after the last newline, or a line still being written
    return lines.map((line) => JSON.parse(line) as LoadResult);
  };

  const waitFor = async (what: string, done: (results: LoadResult[]) => boolean, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = await results();
      if (done(current)) return current;
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(
          `Gave up waiting for ${what} (sender ${child.exitCode === null ? "running" : `exited ${child.exitCode}`}): ${JSON.stringify(summarize(current))}`,
        );
      }
      await sleep(100);
    }
  };

  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    const code = await exited;
    if (code !== 0) throw new Error(`The sender exited with ${code}`);
    const all = await results();
    await rm(folder, { recursive: true, force: true });
    return all;
  };

  return { runId, results, waitFor, stop, process: child };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Counts by outcome: `200`, `503`, …, `network`, `timeout`. */
export function summarize(results: LoadResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const result of results) {
    const key = result.error ?? String(result.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

export const ok = (results: LoadResult[]) => results.filter((result) => result.status === 200);

export interface StoredCheck {
  /** 200s the sender got (distinct delivery ids). */
  answered: number;
  /** Of those, in the database with payload, bytes and headers as sent. */
  found: number;
  missing: string[];
  /** Delivery ids whose row differs from what was sent, with what differs. */
  altered: string[];
  /** Rows of this run in the database, and how many of them the sender never got a 200 for (in flight at a crash). */
  storedForRun: number;
  storedWithout200: number;
  /** Markers stored more than once (one request must make at most one row). */
  duplicated: string[];
}

interface StoredRow {
  id: string;
  raw_body: Buffer;
  headers: Record<string, string>;
  content_type: string | null;
}

/** Compares the database at `databaseUrl` with every 200 in `results` (the sender's run `runId`). */
export async function checkStored(databaseUrl: string, runId: string, results: LoadResult[]): Promise<StoredCheck> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let rows: StoredRow[];
  try {
    ({ rows } = await client.query<StoredRow>(
      `SELECT id::text AS id, raw_body, headers, content_type FROM webhook_deliveries WHERE headers->>'x-fault-run' = $1`,
      [runId],
    ));
  } finally {
    await client.end();
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  const markers = new Map<string, number>();
  for (const row of rows)
    markers.set(row.headers["x-fault-marker"]!, (markers.get(row.headers["x-fault-marker"]!) ?? 0) + 1);

  const answered = new Map<string, LoadResult>();
  for (const result of ok(results)) answered.set(result.deliveryId!, result);
  const check: StoredCheck = {
    answered: answered.size,
    found: 0,
    missing: [],
    altered: [],
    storedForRun: rows.length,
    storedWithout200: 0,
    duplicated: [],
  };
  for (const [id, sent] of answered) {
    const row = byId.get(id);
    if (!row) {
      check.missing.push(`${id} (${sent.marker})`);
      continue;
    }
    const problems: string[] = [];
    if (row.raw_body.toString("utf8") !== sent.body) problems.push("raw body");
    for (const [name, value] of Object.entries(sent.headers!))
      if (row.headers[name] !== value) problems.push(`header ${name}`);
    if (row.content_type !== sent.headers!["content-type"]) problems.push("content type");
    if (problems.length) check.altered.push(`${id} (${sent.marker}): ${problems.join(", ")}`);
    else check.found += 1;
  }
  const answeredMarkers = new Set([...answered.values()].map((result) => result.marker));
  check.storedWithout200 = [...markers.keys()].filter((marker) => !answeredMarkers.has(marker)).length;
  check.duplicated = [...markers].filter(([, count]) => count > 1).map(([marker]) => marker);
  return check;
}

/** Pids of every descendant of `pid` (from /proc), children first. */
export async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number[]>();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    if (!stat) continue;
    // Field 4 is the parent pid; the command name (field 2) may contain spaces, so split after ")".
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const visit = (current: number) => {
    for (const child of parents.get(current) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

/**
 * `kill -9` of the launcher and of every process it started, as a crash takes them all (an embedded PostgreSQL is
 * left alone when `spare` names it: a crashed launcher leaves it orphaned, which the next start must handle).
 */
export async function crash(app: RunningApp, spare: number[] = []): Promise<string[]> {
  const tree = (await descendants(app.process.pid!)).filter((pid) => !spare.includes(pid));
  const commands = await Promise.all(
    tree.map((pid) =>
      readFile(`/proc/${pid}/cmdline`, "utf8").then(
        (text) => text.replaceAll("\0", " ").trim().slice(0, 120),
        () => `pid ${pid}`,
      ),
    ),
  );
  await app.stop("SIGKILL");
  for (const pid of tree) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return commands;
}

/** The live key the launcher printed on its first run. */
export function printedLiveKey(app: RunningApp): string {
  const key = /Live key\s+(sbx_live_\w+)/.exec(app.output())?.[1];
  if (!key) throw new Error(`The launcher printed no live key:\n${app.output()}`);
  return key;
}

/** A JSON API call; `T` is the body a success has (an error body or non-JSON text otherwise). */
export async function api<T = unknown>(
  baseUrl: string,
  key: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, json: json as T };
}

/** A new webhook endpoint; its ingest URL on `baseUrl` (which the sender keeps using across restarts). */
export async function createEndpoint(baseUrl: string, key: string, name: string): Promise<string> {
  const created = await api<{ data: { id: string } }>(baseUrl, key, "POST", "/v1/webhook-endpoints", { name });
  if (created.status !== 201)
    throw new Error(`Creating an endpoint answered ${created.status}: ${JSON.stringify(created.json)}`);
  return `${baseUrl}/webhooks/ingest/${created.json.data.id}`;
}

/**
 * Acknowledges everything pending in the key's workspace the way a consumer would: read a page of unacknowledged
 * deliveries, bulk-ack it, repeat. Returns the ids each ack call reported as newly acknowledged.
 */
export async function acknowledgeEverything(baseUrl: string, key: string): Promise<string[]> {
  const acknowledged: string[] = [];
  for (let page = 0; page < 10_000; page += 1) {
    const listed = await api<{ data: { deliveries: { id: string }[] } }>(
      baseUrl,
      key,
      "GET",
      "/v1/webhook-endpoints/deliveries?unacknowledged=true&limit=100&order=asc",
    );
    if (listed.status !== 200) throw new Error(`Listing answered ${listed.status}: ${JSON.stringify(listed.json)}`);
    const ids = listed.json.data.deliveries.map((delivery) => delivery.id);
    if (!ids.length) return acknowledged;
    const acked = await api<{ data: { acknowledged: string[] } }>(
      baseUrl,
      key,
      "POST",
      "/v1/webhook-endpoints/deliveries/ack",
      { ids },
    );
    if (acked.status !== 200) throw new Error(`Acknowledging answered ${acked.status}: ${JSON.stringify(acked.json)}`);
    acknowledged.push(...acked.json.data.acknowledged);
  }
  throw new Error("Too many pages of pending deliveries");
}

/**
 * A consumer acknowledges everything after a crash run: each stored delivery exactly once, every 200'd one among them.
 * Returns the acknowledged ids.
 */
export async function expectEverythingAcknowledgedOnce(
  baseUrl: string,
  key: string,
  results: LoadResult[],
  stored: StoredCheck,
): Promise<string[]> {
  const acknowledged = await acknowledgeEverything(baseUrl, key);
  expect(new Set(acknowledged).size).toBe(acknowledged.length);
  expect(acknowledged).toHaveLength(stored.storedForRun);
  const acknowledgedSet = new Set(acknowledged);
  for (const result of ok(results)) expect(acknowledgedSet.has(result.deliveryId!)).toBe(true);
  return acknowledged;
}

/** One line of figures for the README, on stdout. */
export function report(scenario: string, figures: Record<string, unknown>): void {
  console.info(`[faults] ${scenario}: ${JSON.stringify(figures)}`);
}
