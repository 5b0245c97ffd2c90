import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineContract } from "@/lib/contracts/contract";
import { ApiError } from "@/lib/errors";
import { MAX_JSON_BODY_BYTES, route } from "./route";

// A public contract, so the wrapper's parsing and error mapping can be exercised without a database.
const echoContract = defineContract({
  operationId: "echo",
  method: "POST",
  path: "/v1/echo/{id}",
  tag: "System",
  summary: "Echo",
  auth: "none",
  params: z.object({ id: z.string().regex(/^e_\w+$/) }),
  query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) }),
  body: z.strictObject({ name: z.string().min(1), tags: z.array(z.string()).max(2).optional() }),
  response: z.object({ id: z.string(), limit: z.number(), name: z.string() }),
  successStatus: 201,
  errors: ["validation_error"],
});

const echo = route(echoContract, async ({ params, query, body }) => ({
  id: params.id,
  limit: query.limit,
  name: body.name,
}));

function call(
  options: { id?: string; query?: string; body?: string; contentType?: string; headers?: Record<string, string> } = {},
) {
  const request = new Request(`http://local/v1/echo/${options.id ?? "e_1"}${options.query ?? ""}`, {
    method: "POST",
    headers: { "content-type": options.contentType ?? "application/json", ...options.headers },
    body: options.body ?? JSON.stringify({ name: "Ada" }),
  });
  return echo(request, { params: Promise.resolve({ id: options.id ?? "e_1" }) });
}

async function errorOf(response: Response) {
  const body = (await response.json()) as {
    success: boolean;
    error: { code: string; message: string; details?: { path: string; message: string }[] };
  };
  expect(body.success).toBe(false);
  return { status: response.status, ...body.error };
}

describe("route()", () => {
  it("parses params, query and body and answers with the contract's success status", async () => {
    const response = await call({ query: "?limit=7" });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ id: "e_1", limit: 7, name: "Ada" });
  });

  it("applies query defaults", async () => {
    expect(await (await call()).json()).toMatchObject({ limit: 50 });
  });

  it("names each bad field in a 400", async () => {
    const error = await errorOf(await call({ query: "?limit=0", body: JSON.stringify({ name: "" }) }));
    expect(error).toMatchObject({ status: 400, code: "validation_error" });
    expect(error.details?.map((detail) => detail.path)).toEqual(["limit"]);

    const bodyError = await errorOf(
      await call({ body: JSON.stringify({ name: "", tags: ["a", "b", "c"], extra: 1, more: 2 }) }),
    );
    expect(bodyError.details?.map((detail) => detail.path).sort()).toEqual(["extra", "more", "name", "tags"]);
    expect(bodyError.message).toContain("name");
  });

  it("validates path parameters", async () => {
    expect(await errorOf(await call({ id: "../etc" }))).toMatchObject({ status: 400, code: "validation_error" });
  });

  it("answers 400 for malformed JSON and for a missing body", async () => {
    expect(await errorOf(await call({ body: "{not json" }))).toMatchObject({
      status: 400,
      message: "Request body is not valid JSON.",
    });
    expect(await errorOf(await call({ body: "" }))).toMatchObject({ status: 400, code: "validation_error" });
  });

  it("refuses a body that is not JSON with 415", async () => {
    expect(await errorOf(await call({ contentType: "text/plain" }))).toMatchObject({
      status: 415,
      code: "unsupported_media_type",
    });
  });

  it("refuses bodies over the limit, by header and while reading", async () => {
    const big = JSON.stringify({ name: "x".repeat(MAX_JSON_BODY_BYTES) });
    expect(await errorOf(await call({ body: big }))).toMatchObject({ status: 413, code: "payload_too_large" });
    const liar = new Request("http://local/v1/echo/e_1", {
      method: "POST",
      headers: { "content-length": String(MAX_JSON_BODY_BYTES + 1) },
      body: "{}",
    });
    expect(await errorOf(await echo(liar, { params: Promise.resolve({ id: "e_1" }) }))).toMatchObject({ status: 413 });
  });

  it("maps thrown ApiErrors and hides unexpected errors", async () => {
    const failing = route({ ...echoContract, body: undefined, params: undefined, query: undefined }, async () => {
      throw new ApiError("payment_required", "Top up first.", { headers: { "x-reason": "balance" } });
    });
    const response = await failing(new Request("http://local/x", { method: "POST" }), { params: Promise.resolve({}) });
    expect(response.headers.get("x-reason")).toBe("balance");
    expect(await errorOf(response)).toMatchObject({ status: 402, code: "payment_required", message: "Top up first." });

    const crashing = route({ ...echoContract, body: undefined, params: undefined, query: undefined }, async () => {
      throw new Error('relation "secret_table" does not exist at /srv/app.js:1');
    });
    const original = console.error;
    console.error = () => {};
    try {
      const crashed = await crashing(new Request("http://local/x", { method: "POST" }), {
        params: Promise.resolve({}),
      });
      const text = await crashed.text();
      expect(crashed.status).toBe(500);
      expect(text).not.toContain("secret_table");
      expect(JSON.parse(text)).toEqual({
        success: false,
        error: { code: "internal", message: "Internal server error." },
      });
    } finally {
      console.error = original;
    }
  });
});
