import { describe, expect, it } from "vitest";
import { withSupplementaryFingerprints } from "./supplementary-fingerprints";

describe("withSupplementaryFingerprints", () => {
  it("adds clues to the entries the dataset has, in the form each field already takes", () => {
    const dataset = {
      Cloudflare: {
        cats: [31],
        headers: { server: "^cloudflare$" },
        dom: { "img[src*='//cdn.cloudflare']": { exists: "" } },
      },
      Wix: { cats: [1], excludes: "Old Wix" },
    };
    const merged = withSupplementaryFingerprints(dataset);
    expect(merged.Cloudflare?.headers).toEqual({ server: "^cloudflare$" });
    expect(merged.Cloudflare?.scriptSrc).toEqual(["^(?:https?://[^/]+)?/cdn-cgi/"]);
    expect(merged.Cloudflare?.dom).toMatchObject({
      "img[src*='//cdn.cloudflare']": { exists: "" },
      "[data-cfemail]": { exists: "" },
    });
    expect(merged.Wix?.excludes).toEqual(["Old Wix", "WebsiteBuilder"]);
    expect(dataset.Cloudflare).not.toHaveProperty("scriptSrc");
  });

  it("does not create an entry the dataset no longer has", () => {
    expect(withSupplementaryFingerprints({ Other: { cats: [1] } })).toEqual({ Other: { cats: [1] } });
  });
});
