import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/errors";
import { BodyTooSlowError, DRAIN_MAX_BYTES, RequestAbortedError, webIngestBody } from "./ingest-body";

const NO_RATE = { minBytesPerSecond: 0, graceMs: 1_000 };

/** A request body the test writes chunk by chunk, as a route handler gets it. */
function sentBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start: (started) => void (controller = started),
    cancel: () => void (cancelled = true),
  });
  return {
    stream,
    send: (bytes: ArrayLike<number>) => controller.enqueue(Uint8Array.from(bytes)),
    end: () => controller.close(),
    reset: () => controller.error(new Error("ECONNRESET")),
    cancelled: () => cancelled,
  };
}

const payloadTooLarge = (error: unknown) => error instanceof ApiError && error.code === "payload_too_large";

afterEach(() => {
  vi.useRealTimers();
});

describe("webIngestBody", () => {
  it("reads the exact bytes, whatever the chunks", async () => {
    const sender = sentBody();
    const body = webIngestBody(sender.stream, null, 10, NO_RATE);
    const read = body.read();
    sender.send([0x00, 0xff]);
    sender.send([0x7b]);
    sender.send([]);
    sender.end();
    expect([...(await read)]).toEqual([0x00, 0xff, 0x7b]);
    body.release();
  });

  it("reads a body of exactly the limit, and none as empty", async () => {
    const sender = sentBody();
    const body = webIngestBody(sender.stream, "4", 4, NO_RATE);
    const read = body.read();
    sender.send([1, 2, 3, 4]);
    sender.end();
    expect((await read).length).toBe(4);
    expect((await webIngestBody(null, null, 4, NO_RATE).read()).length).toBe(0);
  });

  it("refuses a declared length over the limit without reading the body", async () => {
    const sender = sentBody();
    const body = webIngestBody(sender.stream, "11", 10, NO_RATE);
    await expect(body.read()).rejects.toSatisfy(payloadTooLarge);
    expect(sender.stream.locked).toBe(false);
  });

  it("refuses a body that grows past the limit, then drains the rest until it ends", async () => {
    const sender = sentBody();
    const body = webIngestBody(sender.stream, null, 10, NO_RATE);
    const read = body.read();
    sender.send(new Uint8Array(6).fill(1));
    sender.send(new Uint8Array(6).fill(2));
    await expect(read).rejects.toSatisfy(payloadTooLarge);
    let drained = false;
    const drain = body.drain().then(() => (drained = true));
    sender.send([3, 3, 3]);
    await Promise.resolve();
    expect(drained).toBe(false);
    sender.end();
    await drain;
    expect(sender.cancelled()).toBe(false);
  });

  it("lets the answer end once a refused sender goes quiet, and keeps reading", async () => {
    vi.useFakeTimers();
    const sender = sentBody();
    const body = webIngestBody(sender.stream, "100", 10, NO_RATE);
    await expect(body.read()).rejects.toSatisfy(payloadTooLarge);
    let drained = false;
    void body.drain().then(() => (drained = true));
    sender.send([1]);
    await vi.advanceTimersByTimeAsync(900);
    sender.send([2]); // the quiet stretch starts again
    await vi.advanceTimersByTimeAsync(900);
    expect(drained).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(drained).toBe(true);
    expect(sender.cancelled()).toBe(false);
  });

  it("cuts a refused sender that keeps sending past the drain bounds", async () => {
    const sender = sentBody();
    const body = webIngestBody(sender.stream, String(DRAIN_MAX_BYTES * 2), 10, NO_RATE);
    await expect(body.read()).rejects.toSatisfy(payloadTooLarge);
    const drain = body.drain();
    sender.send(new Uint8Array(DRAIN_MAX_BYTES + 1).fill(0));
    await drain;
    expect(sender.cancelled()).toBe(true);
  });

  it("fails a body slower than the minimum rate over a grace period", async () => {
    vi.useFakeTimers();
    const sender = sentBody();
    const body = webIngestBody(sender.stream, null, 1_000, { minBytesPerSecond: 10, graceMs: 1_000 });
    const read = body.read();
    const failed = expect(read).rejects.toBeInstanceOf(BodyTooSlowError);
    sender.send(new Uint8Array(10).fill(0)); // enough for the first second
    await vi.advanceTimersByTimeAsync(1_000);
    sender.send([1]); // not for the second
    await vi.advanceTimersByTimeAsync(1_000);
    await failed;
    body.release();
  });

  it("tells a sender that went away mid-body from a refusal", async () => {
    const sender = sentBody();
    const body = webIngestBody(sender.stream, null, 10, NO_RATE);
    const read = body.read();
    sender.send([1]);
    sender.reset();
    await expect(read).rejects.toBeInstanceOf(RequestAbortedError);
    body.release();
  });
});
