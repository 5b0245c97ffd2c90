import { describe, expect, it } from "vitest";
import { describeNetworkError } from "./network-errors";

function errno(message: string, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

describe("describeNetworkError", () => {
  it("reads the cause of fetch's 'fetch failed'", () => {
    const error = new TypeError("fetch failed", {
      cause: errno("connect ECONNREFUSED 127.0.0.1:3000", "ECONNREFUSED"),
    });
    expect(describeNetworkError(error)).toBe("connect ECONNREFUSED 127.0.0.1:3000");
  });

  it("reads the first attempt of an AggregateError (a host with several addresses), or its code", () => {
    const inner = new AggregateError([errno("connect ECONNREFUSED ::1:3000", "ECONNREFUSED"), errno("b", "X")], "");
    expect(describeNetworkError(new TypeError("fetch failed", { cause: inner }))).toBe("connect ECONNREFUSED ::1:3000");
    expect(describeNetworkError(errno("", "ECONNRESET"))).toBe("ECONNRESET");
  });

  it("falls back to the text of what is not an Error", () => {
    expect(describeNetworkError("boom")).toBe("boom");
  });
});
