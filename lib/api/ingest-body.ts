import type { IncomingMessage } from "node:http";
import { ApiError } from "@/lib/errors";
import { bodyAccumulator, type BodyAccumulator, type ReceivedBytes } from "@/lib/inbox/body-slabs";
import { createByteBudget, type BudgetReader, type ByteBudget } from "./body-budget";
import { watchBodyRate } from "./body-rate-sweep";

/** The sender's connection closed, or the server cut it (HTTP_REQUEST_TIMEOUT_MS), before the whole body arrived. */
export class RequestAbortedError extends Error {}

/** The body arrived slower than INGEST_MIN_BYTES_PER_SECOND over a whole grace period: the sender is cut (408). */
export class BodyTooSlowError extends Error {}

/**
 * All ingest bodies held at once (read, or waiting for their batch to be written), in bytes: with bodies being read
 * served first (./body-budget.ts), enough to keep the batches in flight (six of up to 1 MiB, lib/inbox/ingest-delivery.ts)
 * fed; 32 MiB wrote a hundred concurrent 1 MiB uploads no faster and peaked 40 MB higher. A large body is held in a
 * reused slab (lib/inbox/body-slabs.ts) and goes to PostgreSQL from it (lib/db/piecewise-query.ts). Shared by the
 * launcher's fast path and the route handler of the same process.
 */
const BODY_BYTES_IN_FLIGHT = 16 * 1024 * 1024;

const BUDGET_SLOT = Symbol.for("signalbox.ingestBodyBudget");
function bodyBudget(): ByteBudget {
  const holder = globalThis as typeof globalThis & { [BUDGET_SLOT]?: ByteBudget };
  holder[BUDGET_SLOT] ??= createByteBudget(BODY_BYTES_IN_FLIGHT);
  return holder[BUDGET_SLOT];
}

/**
 * After refusing a body, the rest of it is read and discarded within these bounds before the answer ends: Node closes
 * a connection as soon as a response ends when the sender asked for `Connection: close`, and closing with unread
 * input sends a TCP reset that can reach the sender before our answer. Past the bounds the sender is abusive and the
 * connection is cut.
 */
export const DRAIN_MAX_BYTES = 8 * 1024 * 1024;
export const DRAIN_MAX_MS = 5_000;
/**
 * A route handler's answer goes out chunked (Next.js drops Content-Length), so a sender only knows it is complete once
 * it ends. It ends when the refused body has ended, or once no byte of it came for this long: the sender has stopped
 * to read the answer, and what it had in flight has arrived (a lingering close).
 */
const DRAIN_IDLE_MS = 1_000;

export interface BodyRate {
  /** 0 turns the check off. */
  minBytesPerSecond: number;
  graceMs: number;
}

/**
 * One request's body, read against the process-wide body budget. `read` resolves with the exact bytes; `release`
 * gives its share of the budget (and its slab) back once the delivery is written or refused: the bytes must not be
 * used after it. Safe to call at any time, and more than once.
 */
export interface IngestBody {
  read: () => Promise<Buffer>;
  /** What has come in so far (see BodyAccumulator.received); only before `release`. */
  received: (maxBytes: number) => ReceivedBytes;
  release: () => void;
}

const tooLarge = (limit: number) => new ApiError("payload_too_large", `Webhook bodies are limited to ${limit} bytes.`);

const declaredOver = (contentLength: string | null | undefined, limit: number) => Number(contentLength ?? 0) > limit;

const declaredBytes = (contentLength: string | null | undefined) => {
  const bytes = Number(contentLength ?? Number.NaN);
  return Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : null;
};

/**
 * What both readers share: the limit, the budget and the slow-body rate. Over every stretch of `rate.graceMs` while
 * the body is read (unless the budget held the reader back: `heldBack` tells whether it still does), at least that
 * stretch's share of `rate.minBytesPerSecond` must arrive, or `fail` is called with BodyTooSlowError
 * (./body-rate-sweep.ts).
 */
function bodyIntake(
  limit: number,
  rate: BodyRate,
  reader: BudgetReader,
  accumulator: BodyAccumulator,
  heldBack: () => boolean,
  fail: (error: Error) => void,
) {
  let size = 0;
  const rateWatch =
    rate.minBytesPerSecond > 0
      ? watchBodyRate(rate.minBytesPerSecond, rate.graceMs, heldBack, () => fail(new BodyTooSlowError()))
      : undefined;
  return {
    /** Keeps a chunk; throws `payload_too_large` past the limit. A promise: wait for it before reading on. */
    add(chunk: Uint8Array): Promise<void> | null {
      size += chunk.length;
      rateWatch?.arrived(chunk.length);
      if (size > limit) throw tooLarge(limit);
      const wait = bodyBudget().take(reader, chunk.length);
      accumulator.add(chunk, wait !== null);
      if (wait) rateWatch?.heldBack();
      return wait;
    },
    body: () => accumulator.bytes(),
    stop: () => rateWatch?.stop(),
  };
}

/** The body of a request on the launcher's node:http fast path (lib/api/ingest-http.ts). */
export function ingestBody(request: IncomingMessage, limit: number, rate: BodyRate): IngestBody {
  const reader: BudgetReader = { held: 0 };
  const accumulator = bodyAccumulator(declaredBytes(request.headers["content-length"]));
  return {
    read: () => readIncomingBody(request, limit, rate, reader, accumulator),
    received: accumulator.received,
    release: () => {
      bodyBudget().release(reader);
      accumulator.finish();
    },
  };
}

/** Reads at most `limit` bytes; a declared or streamed body over it is refused without buffering the rest. */
function readIncomingBody(
  request: IncomingMessage,
  limit: number,
  rate: BodyRate,
  reader: BudgetReader,
  accumulator: BodyAccumulator,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // Cut while the endpoint was looked up: its "error" and "close" have fired already.
    if (request.destroyed) return reject(new RequestAbortedError());
    if (declaredOver(request.headers["content-length"], limit)) return reject(tooLarge(limit));
    let settled = false;
    const fail = (error: Error) => {
      settled = true;
      intake.stop();
      request.off("data", onData);
      request.pause();
      reject(error);
    };
    const intake = bodyIntake(limit, rate, reader, accumulator, () => request.isPaused(), fail);
    const onData = (chunk: Buffer) => {
      let wait: Promise<void> | null;
      try {
        wait = intake.add(chunk);
      } catch (error) {
        return fail(error as Error);
      }
      if (!wait) return;
      request.pause();
      void wait.then(() => request.resume());
    };
    request.on("data", onData);
    request.once("end", () => {
      settled = true;
      intake.stop();
      resolve(intake.body());
    });
    // A sender that goes away mid-body must not hold its share of the body budget (or a batch slot) forever.
    // Every request closes: after "end" or a failure this is a no-op, without building an error (and its stack).
    const aborted = () => settled || fail(new RequestAbortedError());
    request.once("error", aborted);
    request.once("close", aborted);
  });
}

/**
 * The body of a request as a route handler gets it (a web stream; lib/api/ingest-route.ts), read with the same
 * limit, budget and rate as the fast path's. `drain`: after a refusal, see `drainWebBody`.
 */
export function webIngestBody(
  stream: ReadableStream<Uint8Array> | null,
  contentLength: string | null,
  limit: number,
  rate: BodyRate,
): IngestBody & { drain: () => Promise<void> } {
  const reader: BudgetReader = { held: 0 };
  const accumulator = bodyAccumulator(declaredBytes(contentLength));
  let source: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const open = () => (source ??= stream?.getReader());
  return {
    read: async () => {
      if (declaredOver(contentLength, limit)) throw tooLarge(limit);
      const opened = open();
      return opened ? readWebBody(opened, limit, rate, reader, accumulator) : Buffer.alloc(0);
    },
    received: accumulator.received,
    release: () => {
      bodyBudget().release(reader);
      accumulator.finish();
    },
    drain: () => drainWebBody(open()),
  };
}

function readWebBody(
  source: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
  rate: BodyRate,
  reader: BudgetReader,
  accumulator: BodyAccumulator,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let waiting = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      intake.stop();
      outcome();
    };
    const intake = bodyIntake(
      limit,
      rate,
      reader,
      accumulator,
      () => waiting,
      (error) => settle(() => reject(error)),
    );
    void (async () => {
      while (!settled) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await source.read();
        } catch {
          // The sender went away mid-body: its share of the budget must not be held forever.
          return settle(() => reject(new RequestAbortedError()));
        }
        if (next.done) return settle(() => resolve(intake.body()));
        if (settled) return;
        try {
          const wait = intake.add(next.value);
          if (!wait) continue;
          waiting = true;
          await wait;
          waiting = false;
        } catch (error) {
          return settle(() => reject(error as Error));
        }
      }
    })();
  });
}

/**
 * Reads what is left of a refused body and drops it. Resolves once the answer may end: the body ended, or no byte came
 * for DRAIN_IDLE_MS (the sender is waiting for the answer: what it had in flight has arrived). Reads on in the
 * background within the bounds; past them the sender is cut.
 */
function drainWebBody(source: ReadableStreamDefaultReader<Uint8Array> | undefined): Promise<void> {
  if (!source) return Promise.resolve();
  return new Promise((answerMayEnd) => {
    let drained = 0;
    const idle = setTimeout(answerMayEnd, DRAIN_IDLE_MS);
    const deadline = setTimeout(() => stop(true), DRAIN_MAX_MS);
    idle.unref();
    deadline.unref();
    const stop = (cut: boolean) => {
      clearTimeout(idle);
      clearTimeout(deadline);
      answerMayEnd();
      if (cut) void source.cancel().catch(() => {});
    };
    void (async () => {
      for (;;) {
        const next = await source.read().catch(() => ({ done: true }) as const); // a read error: the sender is gone
        if (next.done) return stop(false);
        drained += next.value.length;
        if (drained > DRAIN_MAX_BYTES) return stop(true);
        idle.refresh();
      }
    })();
  });
}
