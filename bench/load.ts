/**
 * The load generator, always run in its own process (`runLoad` in bench/lib/processes.ts spawns it) so that it never shares an
 * event loop with a server under test. It reads one job as JSON on stdin and prints one JSON result on stdout.
 *
 * - `cannon`: autocannon at a fixed concurrency for a fixed duration or number of requests, as fast as the server
 *   answers or at a fixed rate (throughput and latency under load).
 * - `sequence`: the given requests one after another on one keep-alive connection (latency of single calls, with
 *   sub-millisecond resolution, which autocannon's histogram does not have); optionally reads a number from each
 *   JSON answer (e.g. `meta.latencyMs`).
 */
import http from "node:http";
import process from "node:process";
import autocannon from "autocannon";

export interface CannonJob {
  kind: "cannon";
  url: string;
  method: "POST" | "GET";
  headers: Record<string, string>;
  /** Sent with every request; `bodyBytes` builds a JSON body of about that size instead. */
  body?: string;
  bodyBytes?: number;
  connections: number;
  durationSeconds: number;
  /** Exactly this many requests, however long they take (instead of `durationSeconds`). */
  amount?: number;
  /** Requests a second over all connections (a steady rate instead of as fast as the server answers). */
  overallRate?: number;
}

export interface SequenceRequest {
  /** Requests with a tag also get latency figures of their own (`byTag`), e.g. to interleave variants. */
  tag?: string;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface SequenceJob {
  kind: "sequence";
  baseUrl: string;
  requests: SequenceRequest[];
  /** Leading requests that are sent but not counted. */
  warmup: number;
  /** A dotted path into each JSON answer whose number is collected (e.g. "meta.latencyMs"). */
  extract?: string;
}

export type LoadJob = CannonJob | SequenceJob;

export interface LoadResult {
  requests: number;
  durationSeconds: number;
  /** Completed requests per second. */
  rps: number;
  /** Client-side latencies in milliseconds. */
  latency: { p50: number; p90: number; p99: number; max: number; mean: number };
  statuses: Record<string, number>;
  /** Connection errors and timeouts (no HTTP answer at all). */
  errors: number;
  /** Values read from the answers (`extract`), same order as the counted requests. */
  extracted?: { p50: number; p99: number; count: number };
  /** Latencies per request tag. */
  byTag?: Record<string, ReturnType<typeof summarize> & { count: number }>;
  /**
   * When the load ran (`cannon`), in ms since the epoch (this process starts well before it and exits after it), and
   * the CPU seconds this process spent meanwhile.
   */
  ran?: { startedAt: number; endedAt: number; cpuSeconds: number };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function summarize(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / (sorted.length || 1);
  return {
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    mean,
  };
}

/** A JSON document of exactly `bytes` bytes (ASCII), shaped like a real webhook: an event with nested line items. */
export function jsonBodyOfSize(bytes: number): string {
  const lines: unknown[] = [];
  const document = {
    type: "invoice.paid",
    id: "evt_0000000000000000",
    created: 1_767_225_600,
    data: { object: { id: "in_000000", currency: "usd", amount_paid: 4200, lines, note: "" } },
  };
  const lineItem = (index: number) => ({
    id: `il_${String(index).padStart(8, "0")}`,
    description: "Signalbox benchmark line item",
    amount: 100 + (index % 900),
    quantity: 1 + (index % 7),
  });
  const itemBytes = JSON.stringify(lineItem(0)).length + 1;
  const emptyBytes = JSON.stringify(document).length;
  const items = Math.max(0, Math.floor((bytes - emptyBytes) / itemBytes) - 1);
  for (let index = 0; index < items; index += 1) lines.push(lineItem(index));
  document.data.object.note = "x".repeat(Math.max(0, bytes - JSON.stringify(document).length));
  return JSON.stringify(document);
}

async function runCannon(job: CannonJob): Promise<LoadResult> {
  const body = job.body ?? (job.bodyBytes ? jsonBodyOfSize(job.bodyBytes) : undefined);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let finish: (result: autocannon.Result) => void = () => {};
  let fail: (error: unknown) => void = () => {};
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const startedAt = Date.now();
  const cpuAtStart = process.cpuUsage();
  const instance = autocannon(
    {
      url: job.url,
      method: job.method,
      headers: job.headers,
      body,
      connections: job.connections,
      duration: job.durationSeconds,
      amount: job.amount,
      overallRate: job.overallRate,
      timeout: 30,
    },
    (error, result) => (error ? fail(error) : finish(result)),
  );
  instance.on("response", (_client, statusCode, _bytes, responseTime) => {
    latencies.push(responseTime);
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  });
  const result = await done;
  const endedAt = Date.now();
  const cpu = process.cpuUsage(cpuAtStart);
  const durationSeconds = result.duration;
  return {
    requests: latencies.length,
    durationSeconds,
    rps: latencies.length / durationSeconds,
    latency: summarize(latencies),
    statuses,
    errors: result.errors + result.timeouts,
    ran: { startedAt, endedAt, cpuSeconds: (cpu.user + cpu.system) / 1e6 },
  };
}

function readPath(value: unknown, dotted: string): unknown {
  return dotted
    .split(".")
    .reduce<unknown>(
      (current, key) =>
        current && typeof current === "object" ? (current as Record<string, unknown>)[key] : undefined,
      value,
    );
}

async function runSequence(job: SequenceJob): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  const tagged = new Map<string, number[]>();
  const extracted: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const started = performance.now();
  let countedFrom = started;
  for (const [index, request] of job.requests.entries()) {
    if (index === job.warmup) countedFrom = performance.now();
    const sent = performance.now();
    const answer = await new Promise<{ status: number; text: string } | null>((resolve) => {
      const outgoing = http.request(
        new URL(request.path, job.baseUrl),
        { method: request.method, headers: request.headers, agent },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
          );
          response.on("error", () => resolve(null));
        },
      );
      outgoing.on("error", () => resolve(null));
      outgoing.end(request.body);
    });
    const elapsed = performance.now() - sent;
    if (index < job.warmup) continue;
    if (!answer) {
      errors += 1;
      continue;
    }
    latencies.push(elapsed);
    if (request.tag !== undefined) {
      if (!tagged.has(request.tag)) tagged.set(request.tag, []);
      tagged.get(request.tag)!.push(elapsed);
    }
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    if (job.extract) {
      try {
        const value = readPath(JSON.parse(answer.text), job.extract);
        if (typeof value === "number") extracted.push(value);
      } catch {
        // Not JSON: nothing to extract; the status tells what happened.
      }
    }
  }
  agent.destroy();
  const durationSeconds = (performance.now() - countedFrom) / 1000;
  const sortedExtracted = [...extracted].sort((a, b) => a - b);
  return {
    requests: latencies.length,
    durationSeconds,
    rps: latencies.length / durationSeconds,
    latency: summarize(latencies),
    statuses,
    errors,
    ...(job.extract && {
      extracted: {
        p50: percentile(sortedExtracted, 50),
        p99: percentile(sortedExtracted, 99),
        count: extracted.length,
      },
    }),
    ...(tagged.size && {
      byTag: Object.fromEntries(
        [...tagged].map(([tag, values]) => [tag, { ...summarize(values), count: values.length }]),
      ),
    }),
  };
}

async function main(): Promise<void> {
  let input = "";
  for await (const chunk of process.stdin) input += String(chunk);
  if (!input.trim()) throw new Error("usage: bench/load.ts < job.json");
  const job = JSON.parse(input) as LoadJob;
  const result = job.kind === "cannon" ? await runCannon(job) : await runSequence(job);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
