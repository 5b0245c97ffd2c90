import type { IncomingMessage } from "node:http";
import { ApiError } from "@/lib/errors";
import { createByteBudget, type BudgetReader, type ByteBudget } from "./body-budget";

/** The sender's connection closed, or the server cut it (HTTP_REQUEST_TIMEOUT_MS), before the whole body arrived. */
export class RequestAbortedError extends Error {}

/** The body arrived slower than INGEST_MIN_BYTES_PER_SECOND over a whole grace period: the sender is cut (408). */
export class BodyTooSlowError extends Error {}

/**
 * All ingest bodies held at once (read, or waiting for their batch to be written), in bytes: enough for the batches in
 * flight (six of up to 2 MiB, lib/inbox/ingest-delivery.ts) and as many again being read, so that a hundred concurrent
 * 1 MiB uploads cost tens of megabytes rather than a hundred, without starving the writes. A body is held once, as the
 * bytes it arrived in; it goes to PostgreSQL from that buffer (lib/db/piecewise-query.ts).
 */
const BODY_BYTES_IN_FLIGHT = 32 * 1024 * 1024;

const BUDGET_SLOT = Symbol.for("signalbox.ingestBodyBudget");
function bodyBudget(): ByteBudget {
  const holder = globalThis as typeof globalThis & { [BUDGET_SLOT]?: ByteBudget };
  holder[BUDGET_SLOT] ??= createByteBudget(BODY_BYTES_IN_FLIGHT);
  return holder[BUDGET_SLOT];
}

export interface BodyRate {
  /** 0 turns the check off. */
  minBytesPerSecond: number;
  graceMs: number;
}

/**
 * One request's body, read against the process-wide body budget. `read` resolves with the exact bytes; `release`
 * gives its share of the budget back once the delivery is written or refused (and is safe to call at any time).
 */
export function ingestBody(request: IncomingMessage, limit: number, rate: BodyRate) {
  const reader: BudgetReader = { held: 0 };
  return {
    read: () => readIncomingBody(request, limit, rate, reader),
    release: () => bodyBudget().release(reader),
  };
}

/**
 * Reads at most `limit` bytes; a declared or streamed body over it is refused without buffering the rest. Over every
 * stretch of `rate.graceMs` while the body is read (unless the budget held it back), at least that stretch's share of
 * `rate.minBytesPerSecond` must arrive, or the request fails with BodyTooSlowError.
 */
function readIncomingBody(
  request: IncomingMessage,
  limit: number,
  rate: BodyRate,
  reader: BudgetReader,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => new ApiError("payload_too_large", `Webhook bodies are limited to ${limit} bytes.`);
    // Cut while the endpoint was looked up: its "error" and "close" have fired already.
    if (request.destroyed) return reject(new RequestAbortedError());
    if (Number(request.headers["content-length"] ?? 0) > limit) return reject(tooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    let arrivedThisStretch = 0;
    let heldBackThisStretch = false;
    const minPerStretch = (rate.minBytesPerSecond * rate.graceMs) / 1000;
    const rateCheck =
      minPerStretch > 0
        ? setInterval(() => {
            if (!heldBackThisStretch && arrivedThisStretch < minPerStretch) fail(new BodyTooSlowError());
            arrivedThisStretch = 0;
            heldBackThisStretch = request.isPaused();
          }, rate.graceMs)
        : undefined;
    rateCheck?.unref();
    let settled = false;
    const fail = (error: Error) => {
      settled = true;
      clearInterval(rateCheck);
      request.off("data", onData);
      request.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      arrivedThisStretch += chunk.length;
      if (size > limit) return fail(tooLarge());
      chunks.push(chunk);
      const wait = bodyBudget().take(reader, chunk.length);
      if (!wait) return;
      request.pause();
      heldBackThisStretch = true;
      void wait.then(() => request.resume());
    };
    request.on("data", onData);
    request.once("end", () => {
      settled = true;
      clearInterval(rateCheck);
      resolve(Buffer.concat(chunks, size));
    });
    // A sender that goes away mid-body must not hold its share of the body budget (or a batch slot) forever.
    // Every request closes: after "end" or a failure this is a no-op, without building an error (and its stack).
    const aborted = () => settled || fail(new RequestAbortedError());
    request.once("error", aborted);
    request.once("close", aborted);
  });
}
