/**
 * A webhook sender under load, run as a process of its own so that killing the server (or its database) never kills
 * the sender: `node --import tsx test/faults/ingest-load.ts '<LoadConfig as JSON>'`.
 *
 * `concurrency` workers POST to the ingest URLs in turn, each request with a unique marker in its body and headers,
 * until SIGTERM or `maxRequests`. Every finished request becomes one JSON line in `out` (appended synchronously, so a
 * reader sees it at once): its status or why it failed, and for a 200 the delivery id and exactly what was sent, so a
 * test can compare the database against the 200s after a crash. No request outlives `timeoutMs`.
 */
import { appendFileSync } from "node:fs";
import process from "node:process";

export interface LoadConfig {
  /** Ingest URLs, used in turn. */
  urls: string[];
  /** JSON lines file, one `LoadResult` per finished request. */
  out: string;
  /** Sent as `x-fault-run` on every request: tells this run's deliveries from any other's. */
  runId: string;
  concurrency: number;
  /** Hard bound on requests sent, whatever happens. */
  maxRequests: number;
  /** Per request, through AbortSignal.timeout: a request that takes longer is counted as a hang. */
  timeoutMs: number;
  /** A worker waits this long after a failed request (network error, timeout, 5xx) before its next one. */
  pauseAfterFailureMs: number;
}

export interface LoadResult {
  seq: number;
  marker: string;
  /** Epoch milliseconds. */
  startedAt: number;
  finishedAt: number;
  /** The HTTP status, when an answer arrived. */
  status?: number;
  /** "timeout": no answer within timeoutMs (a hang); "network": refused, reset or closed without an answer. */
  error?: "timeout" | "network";
  /** For 200s: the delivery id answered and what was sent. */
  deliveryId?: string;
  body?: string;
  headers?: Record<string, string>;
}

/** The request number `seq` of run `runId`: JSON mostly, every fifth as plain text; sizes vary. */
function requestFor(runId: string, seq: number): { marker: string; body: string; headers: Record<string, string> } {
  const marker = `${runId}-${seq}`;
  const json = seq % 5 !== 4;
  const body = json
    ? JSON.stringify({
        marker,
        seq,
        type: "fault.test",
        text: 'ünïcødé ✓ "quoted" \\ back',
        items: [seq, seq * 2, null, true],
        pad: "x".repeat((seq % 7) * 150),
      })
    : `plain text delivery ${marker}\nline two ✓ ${"y".repeat((seq % 3) * 300)}`;
  const headers = {
    "content-type": json ? "application/json" : "text/plain; charset=utf-8",
    "x-fault-run": runId,
    "x-fault-marker": marker,
    "x-fault-seq": String(seq),
  };
  return { marker, body, headers };
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? "") as LoadConfig;
  let stopping = false;
  process.on("SIGTERM", () => (stopping = true));
  process.on("SIGINT", () => (stopping = true));

  let next = 0;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const worker = async () => {
    while (!stopping && next < config.maxRequests) {
      const seq = next++;
      const { marker, body, headers } = requestFor(config.runId, seq);
      const url = config.urls[seq % config.urls.length]!;
      const result: LoadResult = { seq, marker, startedAt: Date.now(), finishedAt: 0 };
      try {
        const response = await fetch(url, {
          method: "POST",
          headers,
          body,
          signal: AbortSignal.timeout(config.timeoutMs),
        });
        const text = await response.text();
        result.status = response.status;
        if (response.status === 200) {
          result.deliveryId = (JSON.parse(text) as { deliveryId: string }).deliveryId;
          result.body = body;
          result.headers = headers;
        }
      } catch (error) {
        result.error = (error as Error).name === "TimeoutError" ? "timeout" : "network";
      }
      result.finishedAt = Date.now();
      appendFileSync(config.out, `${JSON.stringify(result)}\n`);
      if (result.status !== 200 && (result.error || (result.status ?? 0) >= 500))
        await pause(config.pauseAfterFailureMs);
    }
  };
  await Promise.all(Array.from({ length: config.concurrency }, worker));
}

// Tests import only the types (`import type`), so this runs only as a script.
main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
