import { beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { decodeCursor, decodeOffsetCursor, encodeCursor, encodeOffsetCursor, type CursorScope } from "./cursor";

beforeAll(() => {
  process.env.SIGNALBOX_SECRET ??= "unit-test-secret-unit-test-secret-0123";
});

const position = { createdAt: new Date("2026-11-22T10:00:00.123Z"), id: "0b7c6f0e-6a5e-4a0e-9a8e-3d2b1c0f9e8d" };
const scope: CursorScope = { workspaceId: "ws_a", list: "deliveries", unacknowledged: true, endpointId: undefined };

function rejects(
  cursor: string,
  withScope = scope,
  decode: (cursor: string, scope: CursorScope) => unknown = decodeCursor,
) {
  let caught: unknown;
  try {
    decode(cursor, withScope);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ApiError);
  expect(caught).toMatchObject({ code: "validation_error", details: [{ path: "cursor" }] });
}

describe("cursors", () => {
  it("round-trip the position with millisecond precision", () => {
    expect(decodeCursor(encodeCursor(position, scope), { ...scope })).toEqual(position);
  });

  it("are opaque URL-safe text", () => {
    expect(encodeCursor(position, scope)).toMatch(/^[\w-]+\.[\w-]+$/);
  });

  it("refuse any change to the payload or signature", () => {
    const cursor = encodeCursor(position, scope);
    const [payload = "", signature = ""] = cursor.split(".");
    const forgedPayload = Buffer.from(Buffer.from(payload, "base64url").toString().replace("10:00", "09:00")).toString(
      "base64url",
    );
    rejects(`${forgedPayload}.${signature}`);
    rejects(`${payload}.${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`);
    rejects(payload);
    rejects(`${cursor}.extra`);
    rejects("garbage");
    rejects("");
  });

  it("refuse use in another workspace, listing or filter set", () => {
    const cursor = encodeCursor(position, scope);
    rejects(cursor, { ...scope, workspaceId: "ws_b" });
    rejects(cursor, { ...scope, list: "webhook-endpoints" });
    rejects(cursor, { ...scope, unacknowledged: false });
    rejects(cursor, { ...scope, endpointId: "we_x" });
  });
});

describe("offset cursors", () => {
  const searchScope: CursorScope = { workspaceId: "ws_a", list: "people_search", domain: "acme.example" };

  it("round-trip the offset", () => {
    expect(decodeOffsetCursor(encodeOffsetCursor(40, searchScope), { ...searchScope })).toBe(40);
    expect(decodeOffsetCursor(encodeOffsetCursor(0, searchScope), searchScope)).toBe(0);
  });

  it("refuse another scope, a keyset cursor, and a forged offset", () => {
    rejects(encodeOffsetCursor(40, searchScope), { ...searchScope, domain: "rival.example" }, decodeOffsetCursor);
    rejects(encodeCursor(position, searchScope), searchScope, decodeOffsetCursor);
    rejects(encodeOffsetCursor(40, searchScope), searchScope, decodeCursor);
    const [payload, signature] = encodeOffsetCursor(40, searchScope).split(".");
    const forged = Buffer.from(Buffer.from(payload!, "base64url").toString("utf8").replace("40", "4000")).toString(
      "base64url",
    );
    rejects(`${forged}.${signature}`, searchScope, decodeOffsetCursor);
  });
});
