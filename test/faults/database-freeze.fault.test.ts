import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDatabase } from "@/lib/db/database";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "@/lib/db/embedded-postgres";
import { startApp, type RunningApp } from "@/test/app-server";
import { api, createEndpoint, descendants, printedLiveKey, report, sleep } from "./harness";

/*
 * Issue #18, item 8: a frozen database (every PostgreSQL process stopped with SIGSTOP: connections stay open, nothing
 * answers) must not make requests wait without limit. API and ingest requests answer 503 with Retry-After once the
 * connection or statement timeout passes, ingest never answers 200 for a delivery it could not commit, and after
 * SIGCONT the service is back by itself.
 */

const CONNECT_TIMEOUT_MS = 1_000;
const STATEMENT_TIMEOUT_MS = 2_000;
/** A request unanswered after this long is a hang (far beyond what the timeouts above allow). */
const CLIENT_TIMEOUT_MS = 15_000;
const REQUESTS_EACH = 6;

let dataDir: string;
let postgres: EmbeddedDatabase | undefined;
let frozen: number[] = [];
let app: RunningApp | undefined;
let databaseUrl: string;

async function postgresProcesses(): Promise<number[]> {
  const postmaster = Number((await readFile(path.join(dataDir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0]);
  return [postmaster, ...(await descendants(postmaster))];
}

function signal(pids: number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // gone already
    }
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "signalbox-freeze-"));
  postgres = await startEmbeddedPostgres({ dataDir });
  databaseUrl = await ensureDatabase(postgres.url, "signalbox");
  app = await startApp({
    DATABASE_URL: databaseUrl,
    DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
    DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
  });
});

afterAll(async () => {
  signal(frozen, "SIGCONT");
  await app?.stop();
  await postgres?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

interface Outcome {
  kind: "ingest" | "api";
  status: number | "hang";
  retryAfter: string | null;
  code?: string;
  deliveryId?: string;
  body?: string;
  ms: number;
}

async function timed(kind: Outcome["kind"], send: () => Promise<Response>): Promise<Outcome> {
  const started = performance.now();
  try {
    const response = await send();
    const json = (await response.json().catch(() => ({}))) as { deliveryId?: string; error?: { code?: string } };
    return {
      kind,
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      code: json.error?.code,
      deliveryId: json.deliveryId,
      ms: performance.now() - started,
    };
  } catch {
    return { kind, status: "hang", retryAfter: null, ms: performance.now() - started };
  }
}

async function storedIds(ids: string[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      "SELECT id::text AS id FROM webhook_deliveries WHERE id = ANY($1::uuid[]) ORDER BY 1",
      [ids],
    );
    return rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}

describe("a frozen database", () => {
  it("answers 503 with Retry-After instead of waiting for ever, and recovers after SIGCONT", async () => {
    const key = printedLiveKey(app!);
    const ingestUrl = await createEndpoint(app!.baseUrl, key, "freeze");
    const runId = `freeze${Date.now()}`;
    const post = (seq: number) => () =>
      fetch(ingestUrl, {
        method: "POST",
        headers: { "content-type": "application/json", "x-fault-run": runId },
        body: JSON.stringify({ seq }),
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
    const getWorkspace = () =>
      fetch(`${app!.baseUrl}/v1/webhook-endpoints`, {
        headers: { authorization: `Bearer ${key}` },
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
    // Warm: the pool holds open connections, the ones a frozen server leaves hanging.
    const warm = await Promise.all(Array.from({ length: 4 }, (_, seq) => timed("ingest", post(seq))));
    expect((await api(app!.baseUrl, key, "GET", "/v1/webhook-endpoints")).status).toBe(200);

    frozen = await postgresProcesses();
    signal(frozen, "SIGSTOP");
    const during = await Promise.all([
      ...Array.from({ length: REQUESTS_EACH }, (_, seq) => timed("ingest", post(100 + seq))),
      ...Array.from({ length: REQUESTS_EACH }, () => timed("api", getWorkspace)),
    ]);
    const health = await fetch(`${app!.baseUrl}/healthz`, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });

    signal(frozen, "SIGCONT");
    const thawedAt = Date.now();
    frozen = [];
    let recovered: Outcome | undefined;
    for (let seq = 200; !recovered || recovered.status !== 200; seq += 1) {
      expect(Date.now() - thawedAt, "back within 30 s of SIGCONT").toBeLessThan(30_000);
      recovered = await timed("ingest", post(seq));
      if (recovered.status !== 200) await sleep(250);
    }
    const apiAfter = await api(app!.baseUrl, key, "GET", "/v1/webhook-endpoints");

    const byKind = (kind: Outcome["kind"]) => during.filter((outcome) => outcome.kind === kind);
    report("frozen database", {
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      statementTimeoutMs: STATEMENT_TIMEOUT_MS,
      ingest: byKind("ingest").map((outcome) => `${outcome.status} in ${Math.round(outcome.ms)} ms`),
      api: byKind("api").map((outcome) => `${outcome.status} in ${Math.round(outcome.ms)} ms`),
      health: health.status,
      recoveredAfterSigcontMs: Date.now() - thawedAt,
    });

    // Nothing hangs: every request is answered 503 (with Retry-After and the documented code) while frozen.
    for (const outcome of during) {
      expect(outcome, `${outcome.kind} while frozen`).toMatchObject({
        status: 503,
        retryAfter: expect.stringMatching(/^\d+$/) as unknown,
        code: "service_unavailable",
      });
    }
    expect(health.status).toBe(503);
    expect(apiAfter.status).toBe(200);
    expect(app!.process.exitCode).toBeNull();
    // Every 200 is committed (a 503 may have been stored after all once the server woke: the sender retries it).
    const answered200 = [...warm, ...during, recovered!].flatMap((outcome) => outcome.deliveryId ?? []);
    expect(answered200.length).toBeGreaterThanOrEqual(5);
    expect(await storedIds(answered200)).toEqual(answered200.sort());
  });
});
