import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bodyAccumulator, retireBodies } from "./body-slabs";

const KIB = 1024;

/** Feeds `body` in chunks of `chunkBytes` and answers the accumulated bytes. */
function accumulate(body: Buffer, chunkBytes: number, declared: number | null = null) {
  const accumulator = bodyAccumulator(declared);
  for (let at = 0; at < body.length; at += chunkBytes) accumulator.add(body.subarray(at, at + chunkBytes));
  return { accumulator, bytes: accumulator.bytes() };
}

describe("bodyAccumulator", () => {
  it.each([
    ["in chunks", 10 * KIB, 1_000],
    ["in a slab", 200 * KIB, 65_536 - 7],
  ])("answers how much came and a copy of its first bytes (%s)", (_, size, chunkBytes) => {
    const body = randomBytes(size);
    const { accumulator } = accumulate(body, chunkBytes);
    const received = accumulator.received(4_096);
    expect(received.size).toBe(size);
    expect(received.head.equals(body.subarray(0, 4_096))).toBe(true);
    accumulator.finish();
    expect(received.head.equals(body.subarray(0, 4_096))).toBe(true); // a copy: the slab went back
    expect(accumulate(body.subarray(0, 10), 3).accumulator.received(4_096).head.equals(body.subarray(0, 10))).toBe(
      true,
    );
  });

  it("joins a small body as it came, without a slab", () => {
    const body = randomBytes(10 * KIB);
    const { bytes } = accumulate(body, 1_000);
    expect(bytes.equals(body)).toBe(true);
    expect(bytes.buffer.byteLength).not.toBe(64 * KIB);
  });

  it.each([
    ["no declared size", null],
    ["the declared size", 1_048_576],
    ["a declared size smaller than what comes", 70 * KIB],
  ])("keeps every byte of a large body, growing its slab as needed (%s)", (_, declared) => {
    const body = randomBytes(1_048_576);
    const { accumulator, bytes } = accumulate(body, 65_536 - 7, declared);
    expect(bytes.length).toBe(body.length);
    expect(bytes.equals(body)).toBe(true);
    accumulator.finish();
  });

  it("takes no slab for a chunk whose reader waits for its turn, and one of the declared size once it reads on", () => {
    const body = randomBytes(256 * KIB);
    const accumulator = bodyAccumulator(body.length);
    accumulator.add(body.subarray(0, 64 * KIB), true);
    expect(accumulator.bytes().buffer.byteLength).toBeLessThan(body.length);
    accumulator.add(body.subarray(64 * KIB, 128 * KIB));
    accumulator.add(body.subarray(128 * KIB));
    const bytes = accumulator.bytes();
    expect(bytes.buffer.byteLength).toBe(body.length);
    expect(bytes.equals(body)).toBe(true);
    accumulator.finish();
  });

  it("hands a finished body's slab to the next body, which gets its own bytes", () => {
    const first = randomBytes(200 * KIB);
    const { accumulator, bytes: firstBytes } = accumulate(first, 16 * KIB, first.length);
    const slab = firstBytes.buffer;
    accumulator.finish();
    const second = randomBytes(150 * KIB);
    const { accumulator: next, bytes } = accumulate(second, 16 * KIB, second.length);
    expect(bytes.buffer).toBe(slab);
    expect(bytes.equals(second)).toBe(true);
    next.finish();
  });

  it("never reuses the slab of a body whose write failed", () => {
    const first = randomBytes(300 * KIB);
    const { accumulator, bytes: firstBytes } = accumulate(first, 64 * KIB, first.length);
    retireBodies([firstBytes]);
    accumulator.finish();
    const { accumulator: next, bytes } = accumulate(randomBytes(300 * KIB), 64 * KIB, 300 * KIB);
    expect(bytes.buffer).not.toBe(firstBytes.buffer);
    expect(firstBytes.equals(first)).toBe(true);
    next.finish();
  });

  it("ignores chunks after the body was finished, and finishing twice gives the slab back once", () => {
    const body = randomBytes(100 * KIB);
    const { accumulator, bytes } = accumulate(body, 50 * KIB, body.length);
    accumulator.finish();
    accumulator.add(randomBytes(KIB));
    accumulator.finish();
    const a = bodyAccumulator(100 * KIB);
    const b = bodyAccumulator(100 * KIB);
    a.add(randomBytes(100 * KIB));
    b.add(randomBytes(100 * KIB));
    expect(a.bytes().buffer).not.toBe(b.bytes().buffer);
    expect([a.bytes().buffer, b.bytes().buffer]).toContain(bytes.buffer);
    a.finish();
    b.finish();
  });
});
