import { describe, expect, it } from "vitest";
import { preflightApiError } from "./preflight";

// Regressions found by test/hostile/api-fuzz: Next.js answered these API requests with a plain-text 500 or an empty
// 405 instead of the API's error body.

function refusal(method: string, url: string) {
  const error = preflightApiError(method, url);
  return error && { status: error.status, code: error.code, allow: error.headers?.allow };
}

describe("preflightApiError", () => {
  it("lets every documented operation through", () => {
    for (const [method, url] of [
      ["GET", "/v1/workspace"],
      ["GET", "/v1/webhook-endpoints/we_abc?limit=5"],
      ["PATCH", "/v1/webhook-endpoints/we_abc"],
      ["DELETE", "/v1/webhook-endpoints/we_abc"],
      ["GET", "/v1/webhook-endpoints/deliveries"],
      ["POST", "/v1/webhook-endpoints/deliveries/ack"],
      ["POST", "/v1/webhook-endpoints/deliveries/0b7c6f0e-6a5e-4a0e-9a8e-3d2b1c0f9e8d/ack"],
      ["GET", "/v1/webhook-endpoints/deliveries/0b7c6f0e-6a5e-4a0e-9a8e-3d2b1c0f9e8d/raw"],
      ["GET", "/v1/data/media/video/details?video_id=%"],
      ["GET", "/healthz"],
      ["GET", "/v1/webhook-endpoints/%F0%9F%99%83"],
    ]) {
      expect(refusal(method!, url!), `${method} ${url}`).toBeNull();
    }
  });

  it("leaves HEAD, OPTIONS, unknown API paths and everything outside the API to Next.js", () => {
    expect(refusal("HEAD", "/v1/workspace")).toBeNull();
    expect(refusal("OPTIONS", "/v1/webhook-endpoints/we_abc")).toBeNull();
    expect(refusal("GET", "/v1/no/such/route")).toBeNull(); // the catch-all answers a JSON 404
    expect(refusal("GET", "/v1/workspace/")).toBeNull(); // Next.js redirects a trailing slash
    expect(refusal("TRACE", "/deliveries")).toBeNull();
    expect(refusal("GET", "/%")).toBeNull();
  });

  it("refuses a path whose percent-encoding is not UTF-8 with a 400", () => {
    for (const url of [
      "/v1/api-keys/%",
      "/v1/webhook-endpoints/%E0%A4",
      "/v1/webhook-endpoints/deliveries/%FF%FE/raw",
      "/v1/nothing/%zz",
      "/v1/webhook-endpoints/%ED%A0%80",
    ]) {
      expect(refusal("GET", url), url).toMatchObject({ status: 400, code: "validation_error" });
    }
  });

  it("never resolves dot segments inside the API", () => {
    for (const url of [
      "/v1/webhook-endpoints/..",
      "/v1/webhook-endpoints/%2e%2e",
      "/v1/webhook-endpoints/deliveries/../ack",
      "/v1/%2E%2E/workspace",
      "/v1/./workspace",
    ]) {
      expect(refusal("POST", url), url).toMatchObject({ status: 404, code: "not_found" });
    }
  });

  it("answers 405 with Allow for a method the path's route does not export, as Next.js would route it", () => {
    expect(refusal("POST", "/v1/webhook-endpoints/we_abc")).toEqual({
      status: 405,
      code: "method_not_allowed",
      allow: "GET, PATCH, DELETE",
    });
    expect(refusal("PUT", "/v1/workspace")).toEqual({ status: 405, code: "method_not_allowed", allow: "GET, PATCH" });
    expect(refusal("TRACE", "/v1/usage")).toEqual({ status: 405, code: "method_not_allowed", allow: "GET" });
    // A static segment wins over `{id}`: this is the listing, which is GET only, not an endpoint named "deliveries".
    expect(refusal("PATCH", "/v1/webhook-endpoints/deliveries")).toEqual({
      status: 405,
      code: "method_not_allowed",
      allow: "GET",
    });
    expect(refusal("GET", "/v1/webhook-endpoints/deliveries/ack")).toEqual({
      status: 405,
      code: "method_not_allowed",
      allow: "POST",
    });
    expect(refusal("POST", "/healthz")).toEqual({ status: 405, code: "method_not_allowed", allow: "GET" });
  });

  it("leaves HEAD of a GET route and OPTIONS to Next.js, and refuses HEAD where there is no GET with 405", () => {
    expect(preflightApiError("HEAD", "/v1/workspace")).toBeNull();
    expect(preflightApiError("OPTIONS", "/v1/api-keys/key_1")).toBeNull();
    expect(preflightApiError("HEAD", "/v1/no/such/route")).toBeNull(); // the catch-all's GET: a 404
    expect(refusal("HEAD", "/v1/api-keys/key_1")).toEqual({ status: 405, code: "method_not_allowed", allow: "DELETE" });
  });

  it("answers 404 for a method no route knows on an unknown API path", () => {
    expect(refusal("TRACE", "/v1/no/such/route")).toMatchObject({ status: 404, code: "not_found" });
  });
});

describe("preflightApiError on next-auth's paths (/api/auth)", () => {
  it("lets GET, POST, HEAD and OPTIONS through", () => {
    for (const method of ["GET", "POST", "HEAD", "OPTIONS"])
      expect(refusal(method, "/api/auth/csrf"), method).toBeNull();
  });

  it("refuses other methods with a 405, an undecodable path with a 400 (Next.js: plain 500s)", () => {
    expect(refusal("TRACE", "/api/auth/csrf")).toEqual({ status: 405, code: "method_not_allowed", allow: "GET, POST" });
    expect(refusal("PUT", "/api/auth/session")).toMatchObject({ status: 405 });
    expect(refusal("GET", "/api/auth/signin/%ff")).toMatchObject({ status: 400, code: "validation_error" });
    expect(refusal("GET", "/api/auth/%2e%2e/x")).toMatchObject({ status: 404 });
  });
});
