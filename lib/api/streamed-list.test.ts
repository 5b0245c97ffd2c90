import { describe, expect, it } from "vitest";
import { streamedListResponse } from "./streamed-list";

describe("streamedListResponse", () => {
  it.each([
    [[], { nextCursor: null }],
    [[{ a: 1 }], { nextCursor: "c" }],
    [[{ a: "é\u2028" }, [1, null], "x", { nested: { deep: [true] } }], { nextCursor: null, total: 3 }],
    [[{ a: 1 }, { b: 2 }], {}],
  ])("sends what Response.json would for %j", async (items, rest) => {
    const streamed = streamedListResponse("deliveries", items, rest);
    const whole = Response.json({ success: true, data: { deliveries: items, ...rest } });
    expect(streamed.headers.get("content-type")).toBe("application/json");
    expect(await streamed.text()).toBe(await whole.text());
  });

  it("serialises an item only when the reader asks for it", async () => {
    let serialised = 0;
    const items = Array.from({ length: 5 }, (_, n) => ({ toJSON: () => (serialised++, n) }));
    const reader = streamedListResponse("items", items, {}).body!.getReader();
    await reader.read();
    await reader.read();
    expect(serialised).toBeLessThan(items.length);
    while (!(await reader.read()).done);
    expect(serialised).toBe(items.length);
  });
});
