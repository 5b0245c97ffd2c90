import { describe, expect, it } from "vitest";
import { createBatchQueue } from "./batch-queue";

/** A flush that records each batch and finishes only when the test says so. */
function controlledFlush() {
  const batches: number[][] = [];
  const finishers: (() => void)[] = [];
  const flush = (items: number[]) =>
    new Promise<string[]>((resolve) => {
      batches.push(items);
      finishers.push(() => resolve(items.map((item) => `done ${item}`)));
    });
  return { batches, finish: (index: number) => finishers[index]!(), flush };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("createBatchQueue", () => {
  it("sends a lone item at once and groups what arrives while batches are in flight", async () => {
    const { batches, finish, flush } = controlledFlush();
    const queue = createBatchQueue({ flush, maxInFlight: 1, maxItems: 100, maxWeight: 100, weight: () => 1 });
    const first = queue.submit(1);
    expect(batches).toEqual([[1]]);
    const rest = [2, 3, 4].map((item) => queue.submit(item));
    expect(batches).toEqual([[1]]);
    finish(0);
    expect(await first).toBe("done 1");
    await tick();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    finish(1);
    expect(await Promise.all(rest)).toEqual(["done 2", "done 3", "done 4"]);
  });

  it("runs up to maxInFlight batches at once", async () => {
    const { batches, finish, flush } = controlledFlush();
    const queue = createBatchQueue({ flush, maxInFlight: 2, maxItems: 100, maxWeight: 100, weight: () => 1 });
    const answers = [1, 2, 3, 4].map((item) => queue.submit(item));
    expect(batches).toEqual([[1], [2]]);
    finish(1);
    await tick();
    expect(batches).toEqual([[1], [2], [3, 4]]);
    finish(0);
    finish(2);
    expect(await Promise.all(answers)).toEqual(["done 1", "done 2", "done 3", "done 4"]);
  });

  it("keeps a batch within maxItems and maxWeight, and sends an item heavier than maxWeight alone", async () => {
    const { batches, finish, flush } = controlledFlush();
    const queue = createBatchQueue({
      flush,
      maxInFlight: 1,
      maxItems: 3,
      maxWeight: 10,
      weight: (item: number) => item,
    });
    const answers = [1, 1, 1, 1, 1, 4, 4, 4, 50, 1].map((item) => queue.submit(item));
    for (let index = 0; index < 6; index += 1) {
      finish(index);
      await tick();
    }
    expect(batches).toEqual([[1], [1, 1, 1], [1, 4, 4], [4], [50], [1]]);
    await Promise.all(answers);
  });

  it("with overlapFullBatchesOnly, starts another flush beside the first only once a whole batch waits", async () => {
    const { batches, finish, flush } = controlledFlush();
    const queue = createBatchQueue({
      flush,
      maxInFlight: 3,
      overlapFullBatchesOnly: true,
      maxItems: 3,
      maxWeight: 10,
      weight: (item: number) => item,
    });
    const answers = [1, 1, 1].map((item) => queue.submit(item));
    // The first goes at once; the next two wait for it (not a whole batch yet) instead of going out one by one.
    expect(batches).toEqual([[1]]);
    answers.push(queue.submit(1));
    // Three waiting: a whole batch by count, so it goes beside the first.
    expect(batches).toEqual([[1], [1, 1, 1]]);
    answers.push(queue.submit(9), queue.submit(2));
    // 11 of weight waiting: a whole batch by weight (9 alone, as 9 + 2 is over 10).
    expect(batches).toEqual([[1], [1, 1, 1], [9]]);
    // The 2 alone is no whole batch: it waits while any flush is in flight, and goes once none is.
    finish(1);
    finish(0);
    await tick();
    expect(batches).toEqual([[1], [1, 1, 1], [9]]);
    finish(2);
    await tick();
    expect(batches).toEqual([[1], [1, 1, 1], [9], [2]]);
    finish(3);
    expect(await Promise.all(answers)).toEqual(["done 1", "done 1", "done 1", "done 1", "done 9", "done 2"]);
  });

  it("rejects every caller of a batch whose flush fails, and carries on with the next", async () => {
    let calls = 0;
    const queue = createBatchQueue({
      flush: async (items: number[]) => {
        calls += 1;
        if (calls === 2) throw new Error("database down");
        return items.map((item) => item * 10);
      },
      maxInFlight: 1,
      maxItems: 100,
      maxWeight: 100,
      weight: () => 1,
    });
    const first = queue.submit(1);
    const failing = [queue.submit(2), queue.submit(3)];
    expect(await first).toBe(10);
    await expect(failing[0]).rejects.toThrow("database down");
    await expect(failing[1]).rejects.toThrow("database down");
    expect(await queue.submit(4)).toBe(40);
  });
});
