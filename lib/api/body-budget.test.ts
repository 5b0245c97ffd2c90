import { describe, expect, it } from "vitest";
import { createByteBudget, type BudgetReader } from "./body-budget";

const reader = (): BudgetReader => ({ held: 0 });

describe("createByteBudget", () => {
  it("lets readers on while what arrived fits, whatever they declared", () => {
    const budget = createByteBudget(100);
    const readers = Array.from({ length: 40 }, reader);
    for (const each of readers) expect(budget.take(each, 2)).toBeNull(); // forty trickling senders hold 80 bytes
    expect(budget.take(reader(), 20)).toBeNull();
  });

  it("pauses readers once the budget is spent, and wakes them when bytes are given back", async () => {
    const budget = createByteBudget(100);
    const first = reader();
    const second = reader();
    const third = reader();
    expect(budget.take(first, 100)).toBeNull();
    expect(budget.take(second, 10)).toBeNull(); // past the capacity: the one reader allowed to overdraw
    const waiting = budget.take(third, 10);
    expect(waiting).toBeInstanceOf(Promise);
    let woken = false;
    void waiting!.then(() => (woken = true));
    await Promise.resolve();
    expect(woken).toBe(false);
    budget.release(first);
    await Promise.resolve();
    expect(woken).toBe(true);
  });

  it("never deadlocks: with every holder half-way, one at a time may finish past the capacity", async () => {
    const budget = createByteBudget(100);
    const readers = Array.from({ length: 5 }, reader);
    const waits = readers.map((each) => budget.take(each, 30)); // 150 bytes arrived, each body half read
    expect(waits.filter((wait) => wait === null)).toHaveLength(4); // three fit, the fourth overdraws
    const overdrawn = readers[3]!;
    expect(budget.take(overdrawn, 30)).toBeNull(); // it reads on to the end of its body
    let fifthWoken = false;
    void waits[4]!.then(() => (fifthWoken = true));
    budget.release(overdrawn); // written: the budget is still spent, so the next waiter overdraws in turn
    await Promise.resolve();
    expect(fifthWoken).toBe(true);
    expect(budget.take(readers[4]!, 30)).toBeNull();
    expect(budget.take(readers[0]!, 1)).toBeInstanceOf(Promise); // and only one at a time
  });

  it("gives back what a reader held when it goes away while waiting", () => {
    const budget = createByteBudget(10);
    const gone = reader();
    expect(budget.take(reader(), 10)).toBeNull();
    expect(budget.take(reader(), 5)).toBeNull();
    expect(budget.take(gone, 5)).toBeInstanceOf(Promise);
    budget.release(gone);
    expect(gone.held).toBe(0);
  });
});
