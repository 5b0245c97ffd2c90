import { describe, expect, it } from "vitest";
import {
  attemptCountLabel,
  attemptOutcome,
  destinationLabel,
  FORWARD_STATUS_LABELS,
  forwardTimelines,
  hasPendingForward,
  notForwardedReason,
  type Attempt,
  type Forward,
} from "./forwarding";

function forward(id: string, createdAt: string, change: Partial<Forward> = {}): Forward {
  return {
    id,
    destinationId: "dst_1",
    reason: "ingest",
    status: "succeeded",
    attemptCount: 1,
    nextAttemptAt: null,
    createdAt,
    completedAt: null,
    ...change,
  };
}

function attempt(id: string, forwardId: string, attemptNumber: number, startedAt: string): Attempt {
  return {
    id,
    forwardId,
    destinationId: "dst_1",
    attemptNumber,
    startedAt,
    durationMs: 12,
    responseStatus: 200,
    responseBody: "ok",
    responseBodyTruncated: false,
    error: null,
  };
}

describe("forwardTimelines", () => {
  it("lists forwards newest first, each with its own attempts oldest first", () => {
    const timelines = forwardTimelines(
      [forward("fwd_a", "2026-11-28T05:00:00Z"), forward("fwd_b", "2026-11-28T05:10:00Z")],
      [
        attempt("att_3", "fwd_a", 3, "2026-11-28T05:00:09Z"),
        attempt("att_4", "fwd_b", 1, "2026-11-28T05:10:00Z"),
        attempt("att_1", "fwd_a", 1, "2026-11-28T05:00:00Z"),
        attempt("att_2", "fwd_a", 2, "2026-11-28T05:00:02Z"),
      ],
    );
    expect(timelines.map((timeline) => timeline.forward.id)).toEqual(["fwd_b", "fwd_a"]);
    expect(timelines[1]!.attempts.map((item) => item.id)).toEqual(["att_1", "att_2", "att_3"]);
    expect(timelines[0]!.attempts.map((item) => item.id)).toEqual(["att_4"]);
  });

  it("orders by attempt number over start time, and ties by id, so polls never reorder", () => {
    const timelines = forwardTimelines(
      [forward("fwd_y", "2026-11-28T05:00:00Z"), forward("fwd_x", "2026-11-28T05:00:00Z")],
      [attempt("att_2", "fwd_x", 2, "2026-11-28T05:00:00Z"), attempt("att_1", "fwd_x", 1, "2026-11-28T05:00:01Z")],
    );
    expect(timelines.map((timeline) => timeline.forward.id)).toEqual(["fwd_y", "fwd_x"]);
    expect(timelines[1]!.attempts.map((item) => item.attemptNumber)).toEqual([1, 2]);
  });

  it("gives a forward without attempts an empty timeline and drops attempts of unlisted forwards", () => {
    const timelines = forwardTimelines(
      [forward("fwd_a", "2026-11-28T05:00:00Z", { status: "pending", attemptCount: 0 })],
      [attempt("att_9", "fwd_gone", 1, "2026-11-28T05:00:00Z")],
    );
    expect(timelines).toEqual([{ forward: expect.objectContaining({ id: "fwd_a" }), attempts: [] }]);
  });
});

describe("hasPendingForward", () => {
  it("is true while any forward is pending, so the drawer keeps polling", () => {
    expect(hasPendingForward(undefined)).toBe(false);
    expect(hasPendingForward([])).toBe(false);
    expect(hasPendingForward([{ status: "succeeded" }, { status: "failed" }])).toBe(false);
    expect(hasPendingForward([{ status: "succeeded" }, { status: "pending" }])).toBe(true);
  });
});

describe("attemptOutcome", () => {
  it("counts 2xx as success and shows the status code, else the error", () => {
    expect(attemptOutcome({ responseStatus: 204, error: null })).toEqual({ ok: true, label: "HTTP 204" });
    expect(attemptOutcome({ responseStatus: 500, error: null })).toEqual({ ok: false, label: "HTTP 500" });
    expect(attemptOutcome({ responseStatus: 301, error: null })).toEqual({ ok: false, label: "HTTP 301" });
    expect(attemptOutcome({ responseStatus: null, error: "connect ECONNREFUSED 127.0.0.1:9" })).toEqual({
      ok: false,
      label: "connect ECONNREFUSED 127.0.0.1:9",
    });
    expect(attemptOutcome({ responseStatus: 200, error: "body read timed out" })).toEqual({
      ok: true,
      label: "HTTP 200: body read timed out",
    });
    expect(attemptOutcome({ responseStatus: null, error: null })).toEqual({ ok: false, label: "No response" });
  });
});

describe("labels", () => {
  it("names every forward status", () => {
    expect(FORWARD_STATUS_LABELS).toEqual({ pending: "Pending", succeeded: "Succeeded", failed: "Failed" });
  });

  it("counts attempts and says when only the latest are listed", () => {
    expect(attemptCountLabel({ attemptCount: 1 }, 1)).toBe("1 attempt");
    expect(attemptCountLabel({ attemptCount: 0 }, 0)).toBe("0 attempts");
    expect(attemptCountLabel({ attemptCount: 250 }, 200)).toBe("250 attempts, the latest 200 shown");
  });

  it("names a destination by its URL, or by its id once removed", () => {
    const urls = new Map([["dst_1", "https://example.com/in"]]);
    expect(destinationLabel("dst_1", urls)).toBe("https://example.com/in");
    expect(destinationLabel("dst_2", urls)).toBe("Removed destination (dst_2)");
  });
});

describe("notForwardedReason", () => {
  it("tells why a delivery has no forward from its endpoint's destinations", () => {
    expect(notForwardedReason(undefined)).toBe("unknown");
    expect(notForwardedReason([])).toBe("no-destinations");
    expect(notForwardedReason([{ enabled: false }])).toBe("all-disabled");
    expect(notForwardedReason([{ enabled: false }, { enabled: true }])).toBe("added-later");
  });
});
