import { describe, expect, it } from "vitest";
import { endOfLifeWarning } from "./node-support";

describe("endOfLifeWarning", () => {
  it("warns on a release line past its end of life", () => {
    expect(endOfLifeWarning("v20.19.0", new Date("2026-05-01T00:00:00Z"))).toMatch(
      /^Node\.js 20 reached its end of life on 2026-04-30 .*22 or 24/,
    );
  });

  it("stays quiet up to and on the end-of-life day", () => {
    expect(endOfLifeWarning("v20.20.2", new Date("2026-04-30T23:59:59Z"))).toBeNull();
    expect(endOfLifeWarning("v22.11.0", new Date("2026-11-24T00:00:00Z"))).toBeNull();
  });

  it("warns for 22 once its date has passed, and never for lines it does not know", () => {
    expect(endOfLifeWarning("v22.11.0", new Date("2027-05-01T00:00:00Z"))).toMatch(/Node\.js 22/);
    expect(endOfLifeWarning("v25.1.0", new Date("2030-01-01T00:00:00Z"))).toBeNull();
    expect(endOfLifeWarning("not a version", new Date("2030-01-01T00:00:00Z"))).toBeNull();
  });
});
