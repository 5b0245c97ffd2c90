import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { contracts } from "@/lib/contracts";
import { createResponseChecker, type Exchange } from "./check-response";
import type { OpenApiDocument } from "./match-operation";

const check = createResponseChecker(buildOpenApiDocument(contracts) as unknown as OpenApiDocument);
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const JSON_TYPE = { "content-type": "application/json" };

function answer(method: string, target: string, status: number, body: unknown, headers = JSON_TYPE): Exchange {
  return { method, target, status, headers, body: body instanceof Buffer ? body : json(body) };
}

const workspace = {
  success: true,
  data: {
    workspace: { id: "ws_1", name: "Acme", createdAt: "2026-01-01T00:00:00.000Z", deliveryRetention: null },
    apiKey: { id: "key_1", mode: "live" },
    balances: {
      subscriptionAllowanceCents: 0,
      subscriptionRemainingCents: 0,
      purchasedBalanceCents: 0,
      periodStartedAt: "2026-01-01T00:00:00.000Z",
    },
  },
};
const notFound = { success: false, error: { code: "not_found", message: "No API route." } };

describe("the response checker", () => {
  it("accepts an answer the document declares", () => {
    expect(check(answer("GET", "/v1/workspace", 200, workspace))).toEqual([]);
  });

  it("refuses an undeclared property, status or media type", () => {
    const extra = { ...workspace, data: { ...workspace.data, workspace: { ...workspace.data.workspace, x: 1 } } };
    expect(check(answer("GET", "/v1/workspace", 200, extra)).join()).toMatch(/additional properties.*"x"/);
    expect(check(answer("GET", "/v1/workspace", 418, notFound)).join()).toMatch(/status not declared/);
    expect(check(answer("GET", "/v1/workspace", 200, "<p>", { "content-type": "text/html" })).join()).toMatch(
      /Content-Type text\/html not declared/,
    );
  });

  it("expects 405 with Allow for a method the path does not declare", () => {
    const refused = { success: false, error: { code: "method_not_allowed", message: "No." } };
    expect(check(answer("PUT", "/v1/workspace", 405, refused, { ...JSON_TYPE, allow: "GET" } as never))).toEqual([]);
    expect(check(answer("PUT", "/v1/workspace", 405, refused)).join()).toMatch(/required header Allow missing/);
    expect(check(answer("PUT", "/v1/workspace", 200, workspace)).join()).toMatch(/must answer 405/);
    const badPath = { success: false, error: { code: "validation_error", message: "Bad path." } };
    expect(check(answer("PATCH", "/v1/webhook-endpoints/deliveries/%u0/raw", 400, badPath))).toEqual([]);
    const ingest405 = { success: false, error: { code: "method_not_allowed", message: "POST only." } };
    expect(
      check(answer("GET", "/webhooks/ingest/%FF", 405, ingest405, { ...JSON_TYPE, allow: "POST" } as never)),
    ).toEqual([]);
  });

  it("holds unlisted /v1 paths to x-unlisted-api-paths and ignores paths outside the API", () => {
    expect(check(answer("POST", "/v1/nothing-here", 404, notFound))).toEqual([]);
    expect(check(answer("GET", "/v1/nothing-here", 200, workspace)).join()).toMatch(/status not declared/);
    expect(check(answer("GET", "/api/auth/session", 200, {}))).toEqual([]);
  });

  it("matches a static segment before a template one, and any media type where `*/*` is declared", () => {
    const png = {
      "content-type": "image/png",
      "content-disposition": 'attachment; filename="delivery-d-1.bin"',
      "content-security-policy": "default-src 'none'; sandbox",
      "x-content-type-options": "nosniff",
    };
    expect(check(answer("GET", "/v1/webhook-endpoints/deliveries/d-1/raw", 200, Buffer.from([137]), png))).toEqual([]);
    const acked = { success: true, data: { acknowledged: [], alreadyAcknowledged: [], notFound: ["x"] } };
    expect(check(answer("POST", "/v1/webhook-endpoints/deliveries/ack", 200, acked))).toEqual([]);
  });
});
