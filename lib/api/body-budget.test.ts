import { describe, expect, it } from "vitest";
import { createByteBudget, type BudgetReader } from "./body-budget";

const reader = (): BudgetReader => ({ held: 0 });

/** Whether a take's wait has ended (after pending promise callbacks ran). */
async function isSettled(wait: Promise<void> | null): Promise<boolean> {
  if (wait === null) return true;
  let settled = false;
  void wait.then(() => (settled = true));
  await Promise.resolve();
  await Promise.resolve();
  return settled;
}

describe("createByteBudget", () => {
  it("lets readers on while what arrived fits, whatever they declared", () => {
    const budget = createByteBudget(100);
    const readers = Array.from({ length: 40 }, reader);
    for (const each of readers) expect(budget.take(each, 1)).toBeNull(); // forty trickling senders hold 40 bytes
    expect(budget.take(reader(), 20)).toBeNull();
  });

  it("admits new readers only while the admitted hold at most half, and lets admitted ones read on to the whole", async () => {
    const budget = createByteBudget(100);
    const reading = reader();
    const newcomer = reader();
    expect(budget.take(reading, 60)).toBeNull();
    const wait = budget.take(newcomer, 10); // 60 held by admitted readers: more than half, so the newcomer waits
    expect(wait).toBeInstanceOf(Promise);
    expect(budget.take(reading, 40)).toBeNull(); // while the body already being read goes on to the capacity
    expect(await isSettled(wait)).toBe(false);
    budget.release(reading); // written: the newcomer is let in
    expect(await isSettled(wait)).toBe(true);
    expect(budget.take(newcomer, 40)).toBeNull();
  });

  it("pauses admitted readers once the budget is spent, one overdrawing at a time, and wakes them in turn", async () => {
    const budget = createByteBudget(100);
    const [first, second, third] = [reader(), reader(), reader()];
    expect(budget.take(first, 30)).toBeNull();
    expect(budget.take(second, 30)).toBeNull();
    expect(budget.take(first, 40)).toBeNull(); // 100: exactly the capacity
    expect(budget.take(second, 30)).toBeNull(); // past it: the one reader allowed to overdraw
    const firstWait = budget.take(first, 10);
    expect(firstWait).toBeInstanceOf(Promise);
    const thirdWait = budget.take(third, 10); // not admitted while the budget is spent
    budget.release(second); // the overdrawn reader finished: 80 held, so the first reads on; the third still waits
    expect(await isSettled(firstWait)).toBe(true);
    expect(await isSettled(thirdWait)).toBe(false);
    budget.release(first);
    expect(await isSettled(thirdWait)).toBe(true);
  });

  it("never deadlocks: with every admitted reader half-way, one at a time may finish past the capacity", async () => {
    const budget = createByteBudget(100);
    const readers = Array.from({ length: 3 }, reader);
    for (const each of readers) expect(budget.take(each, 20)).toBeNull(); // 0, 20, 40 held when each came: admitted
    const waits = readers.map((each) => budget.take(each, 20)); // 120: each body half read
    expect(waits.filter((wait) => wait === null)).toHaveLength(3); // 80 and 100 fit, the third overdraws
    const overdrawn = readers[2]!;
    expect(budget.take(overdrawn, 40)).toBeNull(); // it reads on to the end of its body
    const stuck = budget.take(readers[0]!, 20);
    expect(stuck).toBeInstanceOf(Promise); // and only one at a time
    budget.release(overdrawn); // written: the budget is back at 80, so the waiting reader goes on
    expect(await isSettled(stuck)).toBe(true);
  });

  it("gives back what a reader held when it goes away while waiting", () => {
    const budget = createByteBudget(10);
    const gone = reader();
    expect(budget.take(reader(), 10)).toBeNull();
    expect(budget.take(gone, 5)).toBeInstanceOf(Promise);
    budget.release(gone);
    expect(gone.held).toBe(0);
    expect(budget.take(reader(), 1)).toBeInstanceOf(Promise); // 10 still held by the first: more than half
  });
});
