import { createHmac, timingSafeEqual } from "node:crypto";
import { appSecret } from "@/lib/app-secret";
import { ApiError } from "@/lib/errors";

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
  return JSON.stringify(
    Object.keys(scope)
      .sort()
      .map((key) => [key, scope[key] ?? null]),
  );
}

/** An opaque, signed cursor: `base64url(payload).signature`. */
function signedCursor(fields: Record<string, unknown>, scope: CursorScope): string {
  const payload = Buffer.from(JSON.stringify({ v: VERSION, ...fields, s: scopeKey(scope) })).toString("base64url");
  return `${payload}.${sign(payload)}`;
}

export function encodeCursor(position: KeysetPosition, scope: CursorScope): string {
  return signedCursor({ t: position.createdAt.toISOString(), i: position.id }, scope);
}

/**
 * A cursor that is one whole number, signed so it cannot be forged or reused with other filters: the offset of the
 * next page of a ranked list answered whole and paged (search results, cut from one cached answer), or the number
 * the next page starts below in a numbered list (an endpoint's refused requests).
 */
export function encodeOffsetCursor(offset: number, scope: CursorScope): string {
  return signedCursor({ o: offset }, scope);
}

function invalidCursor(): ApiError {
  return new ApiError(
    "validation_error",
    "Invalid cursor: pass `nextCursor` from the previous page unchanged, with the same filters.",
    {
      details: [{ path: "cursor", message: "Not a cursor issued for this listing." }],
    },
  );
}

/** The payload of a cursor signed for `scope`; 400 when it was altered, forged, or issued for another scope. */
function verifiedPayload(cursor: string, scope: CursorScope): Record<string, unknown> {
  const [payload, signature, extra] = cursor.split(".");
  if (!payload || !signature || extra !== undefined) throw invalidCursor();
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidCursor();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor();
  }
  if (typeof decoded !== "object" || decoded === null) throw invalidCursor();
  const fields = decoded as Record<string, unknown>;
  if (fields.v !== VERSION || fields.s !== scopeKey(scope)) throw invalidCursor();
  return fields;
}

/** The position a cursor encodes; 400 when it was altered, forged, or issued for another workspace or filter set. */
export function decodeCursor(cursor: string, scope: CursorScope): KeysetPosition {
  const decoded = verifiedPayload(cursor, scope);
  const createdAt = typeof decoded.t === "string" ? new Date(decoded.t) : new Date(Number.NaN);
  if (typeof decoded.i !== "string" || Number.isNaN(createdAt.getTime())) throw invalidCursor();
  return { createdAt, id: decoded.i };
}

/** The offset an offset cursor encodes; 400 like `decodeCursor`. */
export function decodeOffsetCursor(cursor: string, scope: CursorScope): number {
  const { o } = verifiedPayload(cursor, scope);
  if (typeof o !== "number" || !Number.isSafeInteger(o) || o < 0) throw invalidCursor();
  return o;
}
