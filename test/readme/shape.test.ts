import { describe, expect, it } from "vitest";
import { parseShape, placeholderValues, shapeMismatches } from "./shape";

const fits = (shown: string, value: unknown) => shapeMismatches(parseShape(shown), value);

describe("the README's answer shorthand", () => {
  it("holds types, not values", () => {
    expect(
      fits('{"id":"we_…","count":0,"ok":true,"signing":null}', { id: "we_1", count: 7, ok: false, signing: null }),
    ).toEqual([]);
    expect(fits('{"count":0}', { count: "7" })).toEqual([
      "answer.count: the README shows number, the answer has string",
    ]);
  });

  it("finds keys the README does not show, unless it ends with …", () => {
    expect(fits('{"workspace":{"id":"ws_…"}}', { workspace: { id: "ws_1", balances: {} } })).toEqual([
      'answer.workspace: the answer has keys the README does not show (add them or "…"): balances',
    ]);
    expect(fits('{"workspace":{"id":"ws_…",…}}', { workspace: { id: "ws_1", balances: {} } })).toEqual([]);
  });

  it("finds keys shown but missing, also written without a value", () => {
    expect(fits('{"id","rawPayload"}', { id: "x" })).toEqual([
      "answer.rawPayload: shown in the README, missing from the answer",
    ]);
  });

  it("reads alternatives, arrays and ellipses", () => {
    const shown = '{"email":"a@b.example"|null,"emails":[{"value","sources":[…]}],"total":…,"next":"…"|null}';
    expect(fits(shown, { email: null, emails: [{ value: "x", sources: [1, "a"] }], total: {}, next: "c" })).toEqual([]);
    expect(fits(shown, { email: 3, emails: [{ value: "x" }], total: 1, next: null })).toEqual([
      "answer.email: the README shows string, the answer has number",
      "answer.email: the README shows null, the answer has number",
      "answer.emails[0].sources: shown in the README, missing from the answer",
    ]);
  });

  it("refuses text it cannot read", () => {
    expect(() => parseShape('{"a":}')).toThrow();
    expect(() => parseShape('{"a":1} trailing')).toThrow();
  });

  it("names the real values behind placeholders", () => {
    const shape = parseShape('{"data":{"id":"we_…","url":"http://x/we_…"},"deliveryId":"<deliveryId>"}');
    const values = placeholderValues(shape, { data: { id: "we_9", url: "http://x/we_9" }, deliveryId: "u-1" });
    expect(Object.fromEntries(values)).toEqual({ "we_…": "we_9", "<deliveryId>": "u-1" });
  });
});
