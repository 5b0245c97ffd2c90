import { describe, expect, it } from "vitest";
import type { DeliveryFilters } from "./types";
import { walkMatching, type MatchingStep } from "./walk-matching";

const NOW = new Date("2026-11-28T05:00:00.000Z");

/** A fake by-filter route answering `steps` in turn and recording each call. */
function route(steps: MatchingStep[]) {
  const calls: { filter: DeliveryFilters; cursor: string | undefined }[] = [];
  const step = async (filter: DeliveryFilters, cursor: string | undefined) => {
    calls.push({ filter, cursor });
    const answer = steps[calls.length - 1];
    if (!answer) throw new Error("called once too often");
    return answer;
  };
  return { calls, step };
}

describe("walkMatching", () => {
  it("calls again with each nextCursor while hasMore, with the same filter, and sums the counts", async () => {
    const { calls, step } = route([
      { count: 1000, hasMore: true, nextCursor: "c1" },
      { count: 1000, hasMore: true, nextCursor: "c2" },
      { count: 7, hasMore: false, nextCursor: null },
    ]);
    await expect(walkMatching({ endpointId: "we_1", unacknowledged: "true" }, NOW, step)).resolves.toBe(2007);
    expect(calls.map((call) => call.cursor)).toEqual([undefined, "c1", "c2"]);
    const filter = { endpointId: "we_1", unacknowledged: "true", until: "2026-11-28T05:00:00.000Z" };
    expect(calls.map((call) => call.filter)).toEqual([filter, filter, filter]);
  });

  it("caps until at the click, keeping the filter bar's own when it is earlier", async () => {
    const later = route([{ count: 0, hasMore: false, nextCursor: null }]);
    await walkMatching({ until: "2027-01-01T00:00:00Z" }, NOW, later.step);
    expect(later.calls[0]!.filter.until).toBe("2026-11-28T05:00:00.000Z");

    const earlier = route([{ count: 0, hasMore: false, nextCursor: null }]);
    await walkMatching({ until: "2026-11-01T00:00:00Z" }, NOW, earlier.step);
    expect(earlier.calls[0]!.filter.until).toBe("2026-11-01T00:00:00Z");
  });

  it("stops when hasMore comes without a cursor rather than start over", async () => {
    const { calls, step } = route([{ count: 3, hasMore: true, nextCursor: null }]);
    await expect(walkMatching({}, NOW, step)).resolves.toBe(3);
    expect(calls).toHaveLength(1);
  });

  it("fails with the failing call's error", async () => {
    const failing = async (): Promise<MatchingStep> => {
      throw new Error("Invalid request body: filter.q.");
    };
    await expect(walkMatching({}, NOW, failing)).rejects.toThrow("Invalid request body: filter.q.");
  });
});
