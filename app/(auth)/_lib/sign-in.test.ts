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
  ])("%j → %s", (input, path) => {
    expect(safeCallbackPath(input)).toBe(path);
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
