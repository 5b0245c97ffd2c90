import { describe, expect, it } from "vitest";
import { createSharedCheck } from "./shared-check";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A check whose answers the test releases one by one; `started` records the input of each check run. */
function controlledCheck() {
  const started: string[] = [];
  const pending: ((answer: boolean) => void)[] = [];
  const check = createSharedCheck(
    (input: string) => input,
    (input) => {
      started.push(input);
      return new Promise<boolean>((resolve) => pending.push(resolve));
    },
  );
  const answerNext = async (answer: boolean) => {
    pending.shift()!(answer);
    await tick();
  };
  return { check, started, answerNext };
}

describe("createSharedCheck", () => {
  it("runs one check for every caller of the same key in one tick, and one per key", async () => {
    const { check, started, answerNext } = controlledCheck();
    const answers = [...Array.from({ length: 1_000 }, () => check("a")), check("b")];
    await tick();
    expect(started).toEqual(["a", "b"]);
    await answerNext(true);
    await answerNext(false);
    expect(await Promise.all(answers)).toEqual([...Array.from({ length: 1_000 }, () => true), false]);
  });

  it("answers a caller arriving during a check with the next check, shared by everyone who arrived meanwhile", async () => {
    const { check, started, answerNext } = controlledCheck();
    const early = check("a");
    await tick();
    const late = [check("a"), check("a")];
    expect(started).toEqual(["a"]);
    await answerNext(true); // the key is revoked after the first check began: late callers must see it
    expect(await early).toBe(true);
    expect(started).toEqual(["a", "a"]);
    await answerNext(false);
    expect(await Promise.all(late)).toEqual([false, false]);
  });

  it("passes a failed check's error to its callers and still runs the next one", async () => {
    let calls = 0;
    const check = createSharedCheck(
      () => "a",
      async () => {
        calls += 1;
        if (calls === 1) throw new Error("database away");
        return true;
      },
    );
    await expect(check("a")).rejects.toThrow("database away");
    await expect(check("a")).resolves.toBe(true);
    expect(calls).toBe(2);
  });
});
