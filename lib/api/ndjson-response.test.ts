import { describe, expect, it } from "vitest";
import { ndjsonResponse } from "./ndjson-response";

/** A producer that counts how many items were asked of it, and whether it was closed. */
function counted(total: number, failAt?: number) {
  const state = { asked: 0, closed: false };
  async function* items() {
    try {
      for (let n = 0; n < total; n++) {
        state.asked = n + 1;
        if (n === failAt) throw new Error("database went away");
        yield { n };
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, items: items() };
}

const end = (count: number) => ({ type: "end", count });

describe("ndjsonResponse", () => {
  it("writes one line per item, then the end line", async () => {
    const { items } = counted(3);
    const response = await ndjsonResponse(items, end, { "x-extra": "1" });
    expect(response.headers.get("content-type")).toBe("application/x-ndjson");
    expect(response.headers.get("x-extra")).toBe("1");
    expect(await response.text()).toBe('{"n":0}\n{"n":1}\n{"n":2}\n{"type":"end","count":3}\n');
  });

  it("writes just the end line for nothing", async () => {
    expect(await (await ndjsonResponse(counted(0).items, end)).text()).toBe('{"type":"end","count":0}\n');
  });

  it("asks for the next item only when the reader takes a line (back-pressure)", async () => {
    const { state, items } = counted(1_000);
    const response = await ndjsonResponse(items, end);
    // The first item is asked for before answering (so its errors are still an error body).
    expect(state.asked).toBe(1);
    const reader = response.body!.getReader();
    for (let read = 0; read < 5; read++) await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(state.asked).toBeLessThanOrEqual(6);
    // A reader that goes away closes the producer.
    await reader.cancel();
    expect(state.closed).toBe(true);
    expect(state.asked).toBeLessThanOrEqual(6);
  });

  it("fails before answering when the first item fails", async () => {
    await expect(ndjsonResponse(counted(5, 0).items, end)).rejects.toThrow("database went away");
  });

  it("aborts the stream, without an end line, when a later item fails", async () => {
    const { items } = counted(5, 2);
    const response = await ndjsonResponse(items, end);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const original = console.error;
    console.error = () => undefined;
    try {
      await expect(
        (async () => {
          for (let read = await reader.read(); !read.done; read = await reader.read())
            text += decoder.decode(read.value);
        })(),
      ).rejects.toThrow("database went away");
    } finally {
      console.error = original;
    }
    expect(text).toBe('{"n":0}\n{"n":1}\n');
  });
});
