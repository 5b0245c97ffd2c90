import { describe, expect, it } from "vitest";
import { createId, randomBase62 } from "./ids";

describe("createId", () => {
  it("prefixes, uses only base62 and has a fixed length", () => {
    const id = createId("ws");
    expect(id).toMatch(/^ws_[0-9A-Za-z]{30}$/);
  });

  it("sorts by creation time across milliseconds", async () => {
    const first = createId("key");
    await new Promise((resolve) => setTimeout(resolve, 3));
    const second = createId("key");
    expect([second, first].sort()).toEqual([first, second]);
  });

  it("does not repeat", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => createId("x")));
    expect(ids.size).toBe(10_000);
  });
});

describe("randomBase62", () => {
  it("returns the requested length from the base62 alphabet", () => {
    expect(randomBase62(40)).toMatch(/^[0-9A-Za-z]{40}$/);
  });

  it("uses every character with roughly equal frequency", () => {
    const counts = new Map<string, number>();
    for (const char of randomBase62(62_000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Expected 1000 each; a biased mapping (byte % 62 without rejection) would push the first 8 chars to ~1.25x.
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(800);
      expect(count).toBeLessThan(1200);
    }
  });
});
