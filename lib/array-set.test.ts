import { describe, expect, it } from "vitest";
import { ArraySet } from "./array-set";

const entries = (count: number) => Array.from({ length: count }, (_, index) => ({ index }));
const sorted = <T extends { index: number }>(items: Iterable<T>) =>
  [...items].map((item) => item.index).sort((a, b) => a - b);

describe("ArraySet", () => {
  it("adds each object once, deletes any of them, and iterates what is left", () => {
    const set = new ArraySet<{ index: number }>();
    const [a, b, c, d] = entries(4) as [{ index: number }, { index: number }, { index: number }, { index: number }];
    for (const entry of [a, b, c, d, b]) set.add(entry);
    expect(set.size).toBe(4);
    expect(set.delete(b)).toBe(true);
    expect(set.delete(b)).toBe(false);
    expect(set.delete({ index: 9 })).toBe(false);
    expect(set.has(b)).toBe(false);
    expect(set.has(d)).toBe(true);
    expect(sorted(set)).toEqual([0, 2, 3]);
    set.delete(d); // the last one
    set.delete(a); // the first one
    expect(sorted(set)).toEqual([2]);
    set.add(b);
    expect(sorted(set)).toEqual([1, 2]);
  });

  it("keeps an object's membership apart in each set it is in", () => {
    const [item] = entries(1) as [{ index: number }];
    const first = new ArraySet<{ index: number }>();
    const second = new ArraySet<{ index: number }>();
    first.add(item);
    second.add(item);
    first.delete(item);
    expect(first.has(item)).toBe(false);
    expect(second.has(item)).toBe(true);
  });

  it("visits every entry once while entries delete themselves and others during the iteration", () => {
    const set = new ArraySet<{ index: number }>();
    const all = entries(10);
    for (const entry of all) set.add(entry);
    const visited: number[] = [];
    for (const entry of set) {
      visited.push(entry.index);
      set.delete(entry);
      if (entry.index === 2) set.delete(all[7]!); // not visited after being deleted
    }
    expect(visited.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 8, 9]);
    expect(set.size).toBe(0);
  });

  it("stays consistent through churn, as a Set would", () => {
    const set = new ArraySet<{ index: number }>();
    const reference = new Set<{ index: number }>();
    const all = entries(50);
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let step = 0; step < 5_000; step++) {
      const entry = all[Math.floor(random() * all.length)]!;
      if (random() < 0.5) {
        set.add(entry);
        reference.add(entry);
      } else expect(set.delete(entry)).toBe(reference.delete(entry));
      expect(set.size).toBe(reference.size);
    }
    expect(sorted(set)).toEqual(sorted(reference));
  });
});
