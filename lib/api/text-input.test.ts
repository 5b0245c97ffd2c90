import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineContract } from "@/lib/contracts/contract";
import { route } from "./route";
import { findUnstorableText } from "./text-input";

// Regressions found by test/hostile/api-fuzz: a NUL in an id, a query value or a body field reached PostgreSQL, which
// refuses it in text ("invalid byte sequence for encoding UTF8: 0x00"), and the API answered 500.

describe("findUnstorableText", () => {
  it("accepts any well-formed text, emoji, bidi controls and replacement characters included", () => {
    expect(findUnstorableText({ a: "café 🙃 \u202e \uFFFD \uFFFF", b: ["x", 1, null, { c: "" }] })).toBeNull();
    expect(findUnstorableText(42)).toBeNull();
    expect(findUnstorableText(undefined)).toBeNull();
  });

  it("names the first string or key holding a NUL or an unpaired surrogate", () => {
    expect(findUnstorableText("a\u0000b")).toBe("");
    expect(findUnstorableText({ name: "x\u0000" })).toBe("name");
    expect(findUnstorableText({ ids: ["ok", "\ud800"] })).toBe("ids.1");
    expect(findUnstorableText({ filters: { keywords: ["ok", "\udc00x"] } })).toBe("filters.keywords.1");
    expect(findUnstorableText({ "k\u0000": 1 })).toBe("k\\u0000");
  });

  it("walks deep nesting without recursion", () => {
    let deep: unknown = "\u0000";
    for (let depth = 0; depth < 100_000; depth += 1) deep = [deep];
    expect(findUnstorableText(deep)).toBe(Array(100_000).fill(0).join("."));
  });
});

describe("route() and unstorable text", () => {
  const contract = defineContract({
    operationId: "echoText",
    method: "POST",
    path: "/v1/echo/{id}",
    tag: "System",
    summary: "Echo",
    auth: "none",
    params: z.object({ id: z.string() }),
    query: z.object({ q: z.string().optional() }),
    body: z.strictObject({ name: z.string() }),
    response: z.object({ name: z.string() }),
    errors: ["validation_error"],
  });
  const echo = route(contract, async ({ body }) => ({ name: body.name }));

  async function call(id: string, query: string, body: string) {
    const response = await echo(
      new Request(`http://local/v1/echo/x${query}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      }),
      {
        params: Promise.resolve({ id }),
      },
    );
    return {
      status: response.status,
      body: (await response.json()) as { error?: { code: string; details?: { path: string }[] } },
    };
  }

  it("answers 400 naming the field, for path, query and body alike", async () => {
    const inBody = await call("x", "", '{"name":"a\\u0000b"}');
    expect(inBody).toMatchObject({
      status: 400,
      body: { error: { code: "validation_error", details: [{ path: "name" }] } },
    });
    expect(await call("x", "", '{"name":"\\ud800"}')).toMatchObject({ status: 400 });
    expect(await call("a\u0000", "", '{"name":"ok"}')).toMatchObject({
      status: 400,
      body: { error: { details: [{ path: "id" }] } },
    });
    expect(await call("x", "?q=%00", '{"name":"ok"}')).toMatchObject({
      status: 400,
      body: { error: { details: [{ path: "q" }] } },
    });
  });

  it("passes text the database keeps as sent", async () => {
    expect(await call("x", "?q=%F0%9F%99%83", '{"name":"\\u202e🙃\\ufffd"}')).toEqual({
      status: 200,
      body: { name: "\u202e🙃\ufffd" },
    });
  });
});
