import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeCallbackPath, signInErrorMessage } from "./sign-in";

describe("safeCallbackPath", () => {
  it.each([
    [undefined, "/"],
    ["", "/"],
    ["/", "/"],
    ["/endpoints", "/endpoints"],
    ["/usage?days=7", "/usage?days=7"],
    [["/api-keys", "/usage"], "/api-keys"],
    ["http://localhost:3000/endpoints", "/endpoints"],
    ["https://evil.example/phish", "/phish"],
    ["//evil.example", "/"],
    ["/\\evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["endpoints", "/"],
    ["/sign-in", "/"],
    ["/sign-up?x=1", "/"],
    ["/invite/inv_abc123", "/invite/inv_abc123"],
    ["/invite/inv_abc123?from=mail#join", "/invite/inv_abc123?from=mail#join"],
    ["http://localhost:3000/invite/inv_abc123", "/invite/inv_abc123"],
  ])("%j → %s", (input, path) => {
    expect(safeCallbackPath(input)).toBe(path);
  });
});

// Our origin as a browser would see it, over either scheme: a callback must resolve to it from both.
const ORIGINS = ["https://signalbox.example", "http://localhost:3000"];

/** Where a browser goes for `router.replace(path)` / `Location: path` on a page of `origin`. */
function browserOrigin(path: string, origin: string): string {
  return new URL(path, `${origin}/sign-in?callbackUrl=x`).origin;
}

describe("safeCallbackPath against hostile callbacks (resolved by the WHATWG URL parser, as a browser does)", () => {
  const hostile = [
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/\t\\evil.example",
    "\t//evil.example",
    "\n//evil.example",
    " //evil.example",
    "\u0000//evil.example",
    "\u001f//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "\\/evil.example",
    "/.//evil.example",
    "/..//evil.example",
    "/./\\evil.example",
    "/%2e//evil.example",
    "/%2F/evil.example",
    "/%5C/evil.example",
    "http:evil.example",
    "https:evil.example",
    "http:/evil.example",
    "https:/evil.example",
    "http:\\\\evil.example",
    "https://evil.example//evil.example",
    "https://evil.example/\\evil.example",
    "https://evil.example/.//evil.example",
    "HTTPS://evil.example",
    "ht\ttps://evil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    "\njavascript:alert(1)",
    " javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "blob:https://evil.example/uuid",
    "\uff0f\uff0fevil.example",
    "\u2215\u2215evil.example",
    "\u2044\u2044evil.example",
    "/\uff0f/evil.example",
    "\u3000//evil.example",
    "//evil.example@signalbox.example",
    "/@evil.example",
    "//%65vil.example",
    "/\t\n\r//evil.example/path?q=1#h",
  ];

  it.each(hostile)("%j stays on our origin", (input) => {
    const path = safeCallbackPath(input);
    for (const origin of ORIGINS)
      expect(browserOrigin(path, origin), `${JSON.stringify(path)} on ${origin}`).toBe(origin);
  });

  it("keeps any generated callback on our origin", () => {
    const piece = fc.constantFrom(
      "/",
      "\\",
      "\t",
      "\n",
      "\r",
      " ",
      ".",
      "..",
      "%2e",
      "%2f",
      "%5c",
      ":",
      "@",
      "evil.example",
      "http:",
      "https:",
      "javascript:",
      "\uff0f",
      "?",
      "#",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const path = safeCallbackPath(pieces.join(""));
        for (const origin of ORIGINS) expect(browserOrigin(path, origin)).toBe(origin);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("signInErrorMessage", () => {
  it("explains wrong credentials and the lockout", () => {
    expect(signInErrorMessage("CredentialsSignin")).toMatch(/^Wrong email or password/);
  });

  it("has a generic message for unknown codes and none without a code", () => {
    expect(signInErrorMessage("Configuration")).toBe("Sign-in failed. Try again.");
    expect(signInErrorMessage(undefined)).toBeNull();
    expect(signInErrorMessage(null)).toBeNull();
    expect(signInErrorMessage([])).toBeNull();
  });
});
