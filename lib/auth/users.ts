import { env } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { db } from "@/lib/db/client";
import { randomUUID } from "node:crypto";
import { createId } from "@/lib/ids";
import { hashPassword, verifyPassword } from "./password";
import { createWorkspace } from "./workspaces";

export const MIN_PASSWORD_LENGTH = 10;
/**
 * Failed sign-ins allowed per email and source address within the window; past it, that email is refused unchecked
 * from that source only, so guessing from one address never locks the owner out elsewhere.
 */
export const SIGN_IN_FAILURE_LIMIT = 10;
/** Failed sign-ins allowed per source address over all emails within the window (one password sprayed over many). */
export const SIGN_IN_SOURCE_FAILURE_LIMIT = 30;
/**
 * Failed sign-ins of one email over all sources past which every source that has failed on it is refused (guessing
 * from many addresses); a source that has not failed on it still signs in.
 */
export const SIGN_IN_EMAIL_FAILURE_LIMIT = 100;
const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Refuses a password shorter than MIN_PASSWORD_LENGTH, naming the field. */
export function assertPasswordLength(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new ApiError("validation_error", `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`, {
      details: [{ path: "password", message: `must have at least ${MIN_PASSWORD_LENGTH} characters` }],
    });
  }
}

/** Runs an account-creating write; a taken email (unique violation) becomes a validation error on `email`. */
export async function uniqueEmail<T>(create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") {
      throw new ApiError("validation_error", "An account with this email exists already.", {
        details: [{ path: "email", message: "is taken" }],
      });
    }
    throw error;
  }
}

/** Signs up a new user with a new workspace they own. The email must not be taken. */
export async function createAccount(options: {
  email: string;
  password: string;
  name?: string;
  workspaceName: string;
  /** The launcher's first user runs the server. */
  operator?: boolean;
}) {
  const email = normalizeEmail(options.email);
  assertPasswordLength(options.password);
  const passwordHash = await hashPassword(options.password);
  return uniqueEmail(() =>
    db().$transaction(async (tx) => {
      const user = await tx.user.create({
        data: {
          id: createId("usr"),
          email,
          name: options.name?.trim() || null,
          passwordHash,
          isOperator: options.operator ?? false,
        },
        select: { id: true, email: true },
      });
      const workspace = await createWorkspace({ name: options.workspaceName.trim(), ownerUserId: user.id, client: tx });
      return { userId: user.id, email: user.email, workspaceId: workspace.id };
    }),
  );
}

/** Whether recent failures refuse a sign-in of `email` from `source` before its password is checked. */
async function signInThrottled(email: string, source: string): Promise<boolean> {
  const recent = { createdAt: { gte: new Date(Date.now() - SIGN_IN_WINDOW_MS) } };
  const [pair, fromSource, ofEmail] = await Promise.all([
    db().signInFailure.count({ where: { email, sourceIp: source, ...recent } }),
    db().signInFailure.count({ where: { sourceIp: source, ...recent } }),
    db().signInFailure.count({ where: { email, ...recent } }),
  ]);
  return (
    pair >= SIGN_IN_FAILURE_LIMIT ||
    fromSource >= SIGN_IN_SOURCE_FAILURE_LIMIT ||
    (ofEmail >= SIGN_IN_EMAIL_FAILURE_LIMIT && pair > 0)
  );
}

/**
 * The user for an email and password, or null. Unknown emails cost a hash too, so timing does not tell them apart.
 * `source` is the client's address (lib/auth/sign-in-source.ts). Failures are counted per email and source within
 * 15 minutes and refuse further attempts unchecked (see the limits above); refused attempts are not counted, so a
 * lockout ends 15 minutes after the failures that caused it. The counts live in the database: they hold across
 * instances.
 */
export async function authenticateUser(
  email: string,
  password: string,
  source: string,
): Promise<{ id: string; email: string; name: string | null } | null> {
  const normalized = normalizeEmail(email);
  if (await signInThrottled(normalized, source)) return null;

  const user = await db().user.findUnique({
    where: { email: normalized },
    select: { id: true, email: true, name: true, passwordHash: true },
  });
  const valid = user?.passwordHash
    ? await verifyPassword(password, user.passwordHash)
    : (await hashPassword(password), false);
  if (!user || !valid) {
    await db().signInFailure.create({ data: { id: randomUUID(), email: normalized, sourceIp: source } });
    return null;
  }
  return { id: user.id, email: user.email, name: user.name };
}

/** A user's profile, or null. */
export async function findUser(userId: string) {
  return db().user.findUnique({
    where: { id: userId },
    select: { id: true, email: true, name: true, isOperator: true },
  });
}

/** The workspaces a user belongs to, oldest membership first. */
export async function listUserWorkspaces(userId: string) {
  const memberships = await db().workspaceMember.findMany({
    where: { userId },
    orderBy: { createdAt: "asc" },
    select: { role: true, workspace: { select: { id: true, name: true } } },
  });
  return memberships.map((membership) => ({
    id: membership.workspace.id,
    name: membership.workspace.name,
    role: membership.role,
  }));
}

/** True when the user is a member of the workspace. */
export async function isWorkspaceMember(options: { userId: string; workspaceId: string }): Promise<boolean> {
  return (
    (await db().workspaceMember.count({ where: { userId: options.userId, workspaceId: options.workspaceId } })) > 0
  );
}

/**
 * Whether an OAuth sign-in may go ahead: the email has an account, or sign-up is open (SIGNUP=open) so one is created.
 * With closed or invite sign-up, new people come in through an invitation link (and sign in with a password).
 */
export async function oauthSignInAllowed(email: string): Promise<boolean> {
  if (env().SIGNUP === "open") return true;
  return (await db().user.count({ where: { email: normalizeEmail(email) } })) === 1;
}

/** The user behind an OAuth sign-in, by verified email: created with a workspace of their own on first sign-in. */
export async function findOrCreateOAuthUser(options: { email: string; name?: string | null }): Promise<string> {
  const email = normalizeEmail(options.email);
  const existing = await db().user.findUnique({ where: { email }, select: { id: true } });
  if (existing) return existing.id;
  if (env().SIGNUP !== "open") throw new ApiError("forbidden", "Sign-up is not open on this server.");
  return db().$transaction(async (tx) => {
    const user = await tx.user.create({
      data: { id: createId("usr"), email, name: options.name ?? null },
      select: { id: true },
    });
    await createWorkspace({ name: `${options.name ?? email}'s workspace`, ownerUserId: user.id, client: tx });
    return user.id;
  });
}
