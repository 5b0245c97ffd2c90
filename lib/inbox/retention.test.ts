import { describe, expect, it } from "vitest";
import { effectiveRetention, readRetentionPolicy } from "./retention";

describe("effectiveRetention", () => {
  const own = { acknowledgedDays: 7, allDays: 30 };
  const workspace = { acknowledgedDays: null, allDays: 90 };

  it("is the endpoint's own policy when it has one, even one that keeps everything", () => {
    expect(effectiveRetention(own, workspace)).toEqual({ ...own, source: "endpoint" });
    const keepAll = { acknowledgedDays: null, allDays: null };
    expect(effectiveRetention(keepAll, workspace)).toEqual({ ...keepAll, source: "endpoint" });
  });

  it("falls back to the workspace default, then to keeping everything", () => {
    expect(effectiveRetention(null, workspace)).toEqual({ ...workspace, source: "workspace" });
    expect(effectiveRetention(null, null)).toEqual({ acknowledgedDays: null, allDays: null, source: "none" });
  });
});

describe("readRetentionPolicy", () => {
  it("names the stored members, SQL NULL as no policy", () => {
    expect(readRetentionPolicy({ acknowledgedDays: 7, allDays: null })).toEqual({ acknowledgedDays: 7, allDays: null });
    expect(readRetentionPolicy(null)).toBeNull();
  });
});
