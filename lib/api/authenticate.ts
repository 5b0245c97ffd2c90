import { getServerSession } from "next-auth";
import { isApiKeyActive, verifyApiKey } from "@/lib/auth/api-keys";
import { authOptions, type DashboardSession } from "@/lib/auth/next-auth";
import { isSessionRevoked } from "@/lib/auth/session-revocation";
import { isOperator } from "@/lib/auth/operators";
import { isWorkspaceMember, listUserWorkspaces } from "@/lib/auth/users";
import type { Contract } from "@/lib/contracts/contract";
import type { ApiKeyScope } from "@/lib/contracts/scopes";
import { DASHBOARD_HEADER, WORKSPACE_HEADER } from "@/lib/contracts/dashboard-headers";
import { ApiError } from "@/lib/errors";
import { createSharedCheck } from "./shared-check";

const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="signalbox"' };

/** Who is calling: a workspace, through an API key or a member's dashboard session. */
export interface Principal {
  workspace: { id: string; name: string };
  /** `test` only for test API keys. */
  mode: "live" | "test";
  apiKeyId: string | null;
  userId: string | null;
  /** The dashboard session's id (see lib/auth/session-revocation.ts); null for API keys. */
  sessionId: string | null;
  /** The session user's role in the workspace; null for API keys. */
  role: "owner" | "member" | null;
  /** What the API key may do; null for a dashboard session (roles govern those). */
  scopes: readonly ApiKeyScope[] | null;
}

/*
 * Nothing here is cached: every request looks its key up (by SHA-256, see verifyApiKey) and reads its session's
 * revocation and the user's memberships from the database, so revoking a key or signing out holds at once on every
 * instance.
 */

async function fromApiKey(header: string): Promise<Principal> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const key = match?.[1] ? await verifyApiKey(match[1]) : null;
  if (!key) throw new ApiError("unauthorized", "Invalid or revoked API key.", { headers: CHALLENGE });
  return {
    workspace: key.workspace,
    mode: key.mode,
    apiKeyId: key.apiKeyId,
    userId: null,
    sessionId: null,
    role: null,
    scopes: key.scopes,
  };
}

async function readSession(): Promise<DashboardSession | null> {
  try {
    return (await getServerSession(authOptions())) as DashboardSession | null;
  } catch (error) {
    // next-auth builds a URL from Host / X-Forwarded-Host; a value no URL can hold means no session, not a 500.
    if ((error as { code?: unknown }).code === "ERR_INVALID_URL") return null;
    throw error;
  }
}

async function fromSession(request: Request): Promise<Principal | null> {
  if (request.headers.get(DASHBOARD_HEADER) !== "1") return null;
  // The session callbacks (lib/auth/next-auth.ts) refuse signed-out sessions.
  const session = await readSession();
  if (session?.sessionUnavailable) {
    throw new ApiError("service_unavailable", "The service is temporarily unavailable. Retry shortly.", {
      headers: { "Retry-After": "1" },
    });
  }
  if (!session?.userId) return null;
  const workspaces = await listUserWorkspaces(session.userId);
  const wanted = request.headers.get(WORKSPACE_HEADER);
  const workspace = wanted ? workspaces.find((candidate) => candidate.id === wanted) : workspaces[0];
  // Another workspace's id behaves like an unknown one.
  if (!workspace) throw new ApiError("not_found", "No such workspace.");
  return {
    workspace: { id: workspace.id, name: workspace.name },
    mode: "live",
    apiKeyId: null,
    userId: session.userId,
    sessionId: session.sessionId,
    role: workspace.role,
    scopes: null,
  };
}

/**
 * The caller of a `/v1` route: `Authorization: Bearer <key>` always works; a dashboard session works where the
 * contract allows it (`auth: "workspace"`). Anything else is 401.
 */
export async function authenticateRequest(request: Request, options: { allowSession: boolean }): Promise<Principal> {
  const header = request.headers.get("authorization");
  if (header) return fromApiKey(header);
  const principal = options.allowSession ? await fromSession(request) : null;
  if (principal) return principal;
  throw new ApiError("unauthorized", "Missing API key. Send it as `Authorization: Bearer <key>`.", {
    headers: CHALLENGE,
  });
}

async function readPrincipalActive(principal: Principal): Promise<boolean> {
  if (principal.apiKeyId) return isApiKeyActive(principal.workspace.id, principal.apiKeyId);
  if (!principal.userId || !principal.sessionId) return false;
  if (await isSessionRevoked(principal.sessionId)) return false;
  return isWorkspaceMember({ userId: principal.userId, workspaceId: principal.workspace.id });
}

/**
 * Whether a principal authenticated earlier may still act: its key not revoked, or its session not signed out and its
 * user still a member of the workspace. For long-lived responses (the event stream), which outlive the request check.
 * Callers asking about the same principal at about the same time (every open stream of a key, on each burst of
 * events) share one check that began after they asked, so the cost does not grow with the number of streams.
 */
export const isPrincipalActive = createSharedCheck(
  (principal: Principal) =>
    principal.apiKeyId
      ? `key:${principal.apiKeyId}`
      : `session:${principal.sessionId}:${principal.userId}:${principal.workspace.id}`,
  readPrincipalActive,
);

const ACCESS_REFUSALS = {
  session: "This operation is for a signed-in dashboard user, not an API key.",
  owner: "Only an owner of this workspace can do this.",
  operator: "Only an operator of this server can do this.",
} as const;

/**
 * The contract's `access` rule (see Contract): API keys never pass it; a session passes `owner` with the owner role
 * and `operator` when its user operates the server (read now, so revoking the role holds at once).
 */
export async function assertAccess(access: NonNullable<Contract["access"]>, principal: Principal): Promise<void> {
  const allowed =
    principal.userId !== null &&
    (access === "session" ||
      (access === "owner" && principal.role === "owner") ||
      (access === "operator" && (await isOperator(principal.userId))));
  if (!allowed) throw new ApiError("forbidden", ACCESS_REFUSALS[principal.userId ? access : "session"]);
}

/** An API key needs the scope its operation's contract names; sessions are governed by roles instead. */
export function assertScope(scope: ApiKeyScope, principal: Principal): void {
  if (principal.scopes === null || principal.scopes.includes(scope)) return;
  throw new ApiError("forbidden", `This API key lacks the ${scope} scope this operation needs.`);
}
