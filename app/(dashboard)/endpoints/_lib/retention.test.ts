import { describe, expect, it } from "vitest";
import { describeEffectiveRetention, describeRetention, retentionFormValues, toRetentionPolicy } from "./retention";

describe("retention on the endpoint card", () => {
  it("says what is kept, in days", () => {
    expect(describeRetention(null)).toBe("Keeps everything");
    expect(describeRetention({ acknowledgedDays: null, allDays: null })).toBe("Keeps everything");
    expect(describeRetention({ acknowledgedDays: 7, allDays: 30 })).toBe("Keeps acknowledged 7 days, all 30 days");
    expect(describeRetention({ acknowledgedDays: 1, allDays: null })).toBe("Keeps acknowledged 1 day, pending forever");
    expect(describeRetention({ acknowledgedDays: null, allDays: 1 })).toBe("Keeps all 1 day");
  });

  it("names the workspace default when the endpoint has no policy of its own", () => {
    const policy = { acknowledgedDays: null, allDays: 90 };
    expect(describeEffectiveRetention({ ...policy, source: "workspace" })).toBe(
      "Keeps all 90 days (workspace default)",
    );
    expect(describeEffectiveRetention({ ...policy, source: "endpoint" })).toBe("Keeps all 90 days");
    expect(describeEffectiveRetention({ acknowledgedDays: null, allDays: null, source: "none" })).toBe(
      "Keeps everything",
    );
  });
});

describe("the retention form", () => {
  it("round-trips a policy through the form's text", () => {
    for (const policy of [
      { acknowledgedDays: 7, allDays: 30 },
      { acknowledgedDays: null, allDays: 30 },
      { acknowledgedDays: null, allDays: null },
    ])
      expect(toRetentionPolicy(retentionFormValues(policy))).toEqual({ ok: true, policy });
    expect(retentionFormValues(null)).toEqual({ acknowledgedDays: "", allDays: "" });
  });

  it("shows the problems under their fields before sending", () => {
    expect(toRetentionPolicy({ acknowledgedDays: "a week", allDays: " 30 " })).toEqual({
      ok: false,
      fields: { acknowledgedDays: "must be a whole number of days, or empty to keep forever" },
    });
    expect(toRetentionPolicy({ acknowledgedDays: "", allDays: "0" })).toEqual({
      ok: false,
      fields: { allDays: "must be a whole number of days from 1 to 3650, or null to keep forever" },
    });
    expect(toRetentionPolicy({ acknowledgedDays: "31", allDays: "30" })).toEqual({
      ok: false,
      fields: { acknowledgedDays: "must not be more than `allDays`: every delivery is deleted after `allDays`" },
    });
  });
});
