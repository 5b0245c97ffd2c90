import { describe, expect, it } from "vitest";
import { MAX_RETENTION_DAYS, retentionPolicyInput } from "./retention";

function problems(input: unknown) {
  const result = retentionPolicyInput.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

describe("retentionPolicyInput", () => {
  it("takes whole days from 1 to the maximum, a member left out as null", () => {
    expect(retentionPolicyInput.parse({ acknowledgedDays: 7, allDays: 30 })).toEqual({
      acknowledgedDays: 7,
      allDays: 30,
    });
    expect(retentionPolicyInput.parse({ allDays: MAX_RETENTION_DAYS })).toEqual({
      acknowledgedDays: null,
      allDays: MAX_RETENTION_DAYS,
    });
    expect(retentionPolicyInput.parse({ acknowledgedDays: 1 })).toEqual({ acknowledgedDays: 1, allDays: null });
    expect(retentionPolicyInput.parse({})).toEqual({ acknowledgedDays: null, allDays: null });
    expect(retentionPolicyInput.parse({ acknowledgedDays: 30, allDays: 30 })).toEqual({
      acknowledgedDays: 30,
      allDays: 30,
    });
  });

  it.each([0, -1, 1.5, MAX_RETENTION_DAYS + 1, "7", true, [], {}, Number.MAX_SAFE_INTEGER + 2])(
    "refuses %j days",
    (value) => {
      expect(problems({ allDays: value })).toEqual([
        `allDays: must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, or null to keep forever`,
      ]);
    },
  );

  it("refuses acknowledged deliveries kept longer than all deliveries, once, on acknowledgedDays", () => {
    expect(problems({ acknowledgedDays: 31, allDays: 30 })).toEqual([
      "acknowledgedDays: must not be more than `allDays`: every delivery is deleted after `allDays`",
    ]);
    // A bad member is reported on its own, not again as an order problem.
    expect(problems({ acknowledgedDays: "x", allDays: 30 })).toHaveLength(1);
  });

  it("refuses unknown members and anything but an object", () => {
    expect(problems({ allDays: 30, days: 7 })).toHaveLength(1);
    for (const value of [null, 30, "30", [30]]) expect(problems(value)).toHaveLength(1);
  });
});
