import { getServerSession } from "next-auth";
import { verifyApiKey } from "@/lib/auth/api-keys";
import { authOptions } from "@/lib/auth/next-auth";
import { listUserWorkspaces } from "@/lib/auth/users";
import { DASHBOARD_HEADER, WORKSPACE_HEADER } from "@/lib/contracts/dashboard-headers";
import { ApiError } from "./errors";

const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="signalbox"' };

/** Who is calling: a workspace, through an API key or a member's dashboard session. */
export interface Principal {
  workspace: { id: string; name: string };
  /** `test` only for test API keys. */
  mode: "live" | "test";
  apiKeyId: string | null;
  userId: string | null;
}

async function fromApiKey(header: string): Promise<Principal> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const key = match?.[1] ? await verifyApiKey(match[1]) : null;
  if (!key) throw new ApiError("unauthorized", "Invalid or revoked API key.", { headers: CHALLENGE });
  return { workspace: key.workspace, mode: key.mode, apiKeyId: key.apiKeyId, userId: null };
}

async function fromSession(request: Request): Promise<Principal | null> {
  if (request.headers.get(DASHBOARD_HEADER) !== "1") return null;
  const session = (await getServerSession(authOptions())) as { userId?: string | null } | null;
  if (!session?.userId) return null;
  const workspaces = await listUserWorkspaces(session.userId);
  const wanted = request.headers.get(WORKSPACE_HEADER);
  const workspace = wanted ? workspaces.find((candidate) => candidate.id === wanted) : workspaces[0];
  // Another workspace's id behaves like an unknown one.
  if (!workspace) throw new ApiError("not_found", "No such workspace.");
  return { workspace: { id: workspace.id, name: workspace.name }, mode: "live", apiKeyId: null, userId: session.userId };
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
  throw new ApiError("unauthorized", "Missing API key. Send it as `Authorization: Bearer <key>`.", { headers: CHALLENGE });
}
