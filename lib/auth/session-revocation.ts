import { randomBytes } from "node:crypto";
import { db } from "@/lib/db/client";

/*
 * Server-side sign-out for stateless sessions. A dashboard session is a next-auth JWT cookie: nothing on the server
 * knows it exists, so a copy of the cookie would keep working after its owner signs out. Every session therefore gets
 * an id at sign-in (the `sid` claim; next-auth's own `jti` is re-drawn each time the cookie is refreshed, so it cannot
 * name a session), signing out records that id in `revoked_sessions`, and every session check refuses recorded ids.
 * The table lives in PostgreSQL, so a sign-out on one instance holds on every instance at once.
 */

/** How long a session lives without use (next-auth's `session.maxAge`), in seconds. */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;
// next-auth accepts a JWT up to 15 s past its `exp`; keep revocations a little longer than any cookie can live.
const EXPIRY_MARGIN_MS = 60_000;

/** A new session id: 128 random bits. A handle for revocation only, never a credential. */
export function newSessionId(): string {
  return randomBytes(16).toString("base64url");
}

/**
 * Records that a session was signed out; its cookies (and any copies of them) are refused from now on. Rows whose
 * sessions can no longer be valid anyway are pruned on the way.
 */
export async function revokeSession(options: { sessionId: string; now?: Date }): Promise<void> {
  const now = options.now ?? new Date();
  // Every cookie of the session was issued at `now` at the latest (a revoked session is never refreshed), so none
  // outlives now + maxAge: the record is needed until then.
  const expiresAt = new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000 + EXPIRY_MARGIN_MS);
  await db().revokedSession.upsert({
    where: { sessionId: options.sessionId },
    create: { sessionId: options.sessionId, revokedAt: now, expiresAt },
    update: {},
  });
  await pruneRevokedSessions(now);
}

/** True when the session was signed out. A database error propagates: the caller must not treat it as "not revoked". */
export async function isSessionRevoked(sessionId: string): Promise<boolean> {
  return (await db().revokedSession.count({ where: { sessionId } })) > 0;
}

/** Deletes revocations that have expired; returns how many. */
export async function pruneRevokedSessions(now: Date = new Date()): Promise<number> {
  const { count } = await db().revokedSession.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}
