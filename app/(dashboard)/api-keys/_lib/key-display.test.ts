import { describe, expect, it } from "vitest";
import { activeFirst, keyPrefix } from "./key-display";

describe("keyPrefix", () => {
  it("ends the visible start with an ellipsis", () => {
    expect(keyPrefix("sbx_live_a1B2")).toBe("sbx_live_a1B2…");
  });
});

describe("activeFirst", () => {
  it("moves revoked keys to the end and keeps the order otherwise", () => {
    const keys = [
      { id: "a", revokedAt: "2025-01-02T00:00:00.000Z" },
      { id: "b", revokedAt: null },
      { id: "c", revokedAt: "2025-01-01T00:00:00.000Z" },
      { id: "d", revokedAt: null },
    ];
    expect(activeFirst(keys).map((key) => key.id)).toEqual(["b", "d", "a", "c"]);
  });
});
