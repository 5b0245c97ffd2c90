import { describe, expect, it } from "vitest";
import { createRejectionSampler } from "./rejection-sampler";

const endpoint = (id: string) => ({ id, workspaceId: "ws_1" });

describe("createRejectionSampler", () => {
  it("lets a burst through, then `perSecond`, and counts the rest per endpoint", () => {
    const sampler = createRejectionSampler({ perSecond: 2, burst: 3, maxEndpoints: 10 });
    const taken = Array.from({ length: 10 }, () => sampler.take(endpoint("we_a"), 1_000));
    expect(taken.filter(Boolean)).toHaveLength(3);
    // Half a second later one token has come back, and only one.
    expect(sampler.take(endpoint("we_a"), 1_500)).toBe(true);
    expect(sampler.take(endpoint("we_a"), 1_500)).toBe(false);
    // Another endpoint has a bucket of its own.
    expect(sampler.take(endpoint("we_b"), 1_500)).toBe(true);
    expect(sampler.takeSkipped()).toEqual([{ endpoint: endpoint("we_a"), count: 8 }]);
    expect(sampler.takeSkipped()).toEqual([]);
  });

  it("saves up no more than the burst however long an endpoint was quiet", () => {
    const sampler = createRejectionSampler({ perSecond: 2, burst: 3, maxEndpoints: 10 });
    sampler.take(endpoint("we_a"), 0);
    const taken = Array.from({ length: 10 }, () => sampler.take(endpoint("we_a"), 3_600_000));
    expect(taken.filter(Boolean)).toHaveLength(3);
  });

  it("counts a refusal taken but not recorded (`skip`)", () => {
    const sampler = createRejectionSampler({ perSecond: 2, burst: 3, maxEndpoints: 10 });
    expect(sampler.take(endpoint("we_a"), 0)).toBe(true);
    sampler.skip(endpoint("we_a"));
    expect(sampler.takeSkipped()).toEqual([{ endpoint: endpoint("we_a"), count: 1 }]);
  });

  it("tracks at most `maxEndpoints`, dropping the oldest with its count", () => {
    const sampler = createRejectionSampler({ perSecond: 0, burst: 0, maxEndpoints: 2 });
    sampler.take(endpoint("we_a"), 0);
    sampler.take(endpoint("we_b"), 0);
    sampler.take(endpoint("we_c"), 0);
    expect(sampler.takeSkipped().map((skipped) => skipped.endpoint.id)).toEqual(["we_b", "we_c"]);
  });

  it("keeps only an endpoint's two ids", () => {
    const sampler = createRejectionSampler({ perSecond: 0, burst: 0, maxEndpoints: 2 });
    sampler.take({ ...endpoint("we_a"), signingSecret: "whsec_secret" } as ReturnType<typeof endpoint>, 0);
    expect(sampler.takeSkipped()[0]!.endpoint).toEqual(endpoint("we_a"));
  });
});
