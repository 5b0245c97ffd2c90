import { describe, expect, it } from "vitest";
import { secretHint } from "./secret-hint";

describe("secretHint", () => {
  it.each([
    ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "…LaSw"],
    ["0123456789abcdef", "…cdef"],
    ["01234567", "…67"],
    ["abcd", "…d"],
    ["abc", "…"],
    ["x", "…"],
    ["🔑🔑🔑🔑🔑🔑🔑🔑", "…🔑🔑"],
  ])("%s → %s", (secret, hint) => {
    expect(secretHint(secret)).toBe(hint);
  });

  it("never shows more than a quarter of any secret", () => {
    for (let length = 1; length <= 40; length++) {
      const hint = secretHint("s".repeat(length));
      expect(hint.length - 1).toBeLessThanOrEqual(length / 4);
    }
  });
});
