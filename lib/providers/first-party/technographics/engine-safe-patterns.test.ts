import { describe, expect, it } from "vitest";
import { withEngineSafePatterns } from "./engine-safe-patterns";

describe("withEngineSafePatterns", () => {
  it("takes the escapes off slashes in patterns, and leaves escaped backslashes, keys and metadata alone", () => {
    const dataset = {
      Pixel: {
        website: "https:\\/\\/pixel.example",
        scripts: ["connect\\.pixel\\.example\\/(?:en_US\\/)?events\\.js"],
        headers: { "x-path\\/key": "^\\/app\\\\/" },
        dom: { "a[href*='\\/x']": { attributes: { href: "\\/x\\/" } } },
      },
    };
    expect(withEngineSafePatterns(dataset)).toEqual({
      Pixel: {
        website: "https:\\/\\/pixel.example",
        scripts: ["connect\\.pixel\\.example/(?:en_US/)?events\\.js"],
        headers: { "x-path\\/key": "^/app\\\\/" },
        dom: { "a[href*='\\/x']": { attributes: { href: "/x/" } } },
      },
    });
  });
});
