import { createHmac, timingSafeEqual } from "node:crypto";
import { appSecret } from "@/lib/auth/app-secret";
import { ApiError } from "./errors";

/** Where a keyset page ends: the sort key of its last row. */
export interface KeysetPosition {
  createdAt: Date;
  id: string;
}

/** What a cursor is only valid for: the workspace, the listing and its filters. A cursor used elsewhere is refused. */
export type CursorScope = Record<string, string | boolean | undefined>;

const VERSION = 1;

function sign(payload: string): string {
  return createHmac("sha256", appSecret()).update(payload).digest().subarray(0, 16).toString("base64url");
}

function scopeKey(scope: CursorScope): string {
  return JSON.stringify(Object.keys(scope).sort().map((key) => [key, scope[key] ?? null]));
}

/** An opaque, signed cursor: `base64url(payload).signature`. */
export function encodeCursor(position: KeysetPosition, scope: CursorScope): string {
  const payload = Buffer.from(JSON.stringify({ v: VERSION, t: position.createdAt.toISOString(), i: position.id, s: scopeKey(scope) })).toString("base64url");
  return `${payload}.${sign(payload)}`;
}

function invalidCursor(): ApiError {
  return new ApiError("validation_error", "Invalid cursor: pass `nextCursor` from the previous page unchanged, with the same filters.", {
    details: [{ path: "cursor", message: "Not a cursor issued for this listing." }],
  });
}

/** The position a cursor encodes; 400 when it was altered, forged, or issued for another workspace or filter set. */
export function decodeCursor(cursor: string, scope: CursorScope): KeysetPosition {
  const [payload, signature, extra] = cursor.split(".");
  if (!payload || !signature || extra !== undefined) throw invalidCursor();
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidCursor();
  let decoded: { v?: unknown; t?: unknown; i?: unknown; s?: unknown };
  try {
    decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as typeof decoded;
  } catch {
    throw invalidCursor();
  }
  const createdAt = typeof decoded.t === "string" ? new Date(decoded.t) : new Date(Number.NaN);
  if (decoded.v !== VERSION || typeof decoded.i !== "string" || Number.isNaN(createdAt.getTime()) || decoded.s !== scopeKey(scope)) {
    throw invalidCursor();
  }
  return { createdAt, id: decoded.i };
}
