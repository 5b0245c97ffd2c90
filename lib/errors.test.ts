import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isDatabaseUnavailable, toErrorDetails } from "./errors";

describe("isDatabaseUnavailable", () => {
  it.each([
    ["Prisma can't reach the server", { code: "P1001" }],
    ["Prisma pool timeout", { code: "P2024" }],
    ["PostgreSQL shutting down", { code: "57P01" }],
    ["a connection exception", { code: "08006" }],
    [
      "a refused socket, as a cause",
      new Error("query failed", { cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }) }),
    ],
    ["a driver adapter error", { code: "P2010", meta: { driverAdapterError: { kind: "DatabaseNotReachable" } } }],
    ["node-postgres losing its connection", new Error("Connection terminated unexpectedly")],
    ["node-postgres waiting for a pool connection too long", new Error("timeout exceeded when trying to connect")],
    ["node-postgres getting no answer within query_timeout (a frozen server)", new Error("Query read timeout")],
    ["a statement cancelled by statement_timeout", { code: "57014" }],
  ])("recognises %s", (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation", { code: "P2002" }],
    ["a syntax error", { code: "42601" }],
    ["a plain bug", new TypeError("x is undefined")],
    [
      "a server error whose message starts alike",
      Object.assign(new Error("Connection terminated by administrator command"), { code: "42P01" }),
    ],
    ["nothing", undefined],
  ])("does not mistake %s for an outage", (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe("toErrorDetails", () => {
  it("gives dotted paths and one detail per unknown key", () => {
    const schema = z.strictObject({ ids: z.array(z.string().min(1)) });
    const result = schema.safeParse({ ids: ["a", ""], extra: true });
    expect(result.success).toBe(false);
    const details = toErrorDetails(result.error!);
    expect(details).toEqual(
      expect.arrayContaining([
        { path: "ids.1", message: expect.any(String) },
        { path: "extra", message: "Unknown field." },
      ]),
    );
  });
});
