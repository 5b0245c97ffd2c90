import { verifyApiKey, type ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { ApiError } from "./errors";

const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="signalbox"' };

/** The workspace behind `Authorization: Bearer <key>`; 401 when the header is missing or the key is not valid. */
export async function authenticateRequest(request: Request): Promise<ApiKeyPrincipal> {
  const header = request.headers.get("authorization");
  if (!header) {
    throw new ApiError("unauthorized", "Missing API key. Send it as `Authorization: Bearer <key>`.", { headers: CHALLENGE });
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const principal = match?.[1] ? await verifyApiKey(match[1]) : null;
  if (!principal) throw new ApiError("unauthorized", "Invalid or revoked API key.", { headers: CHALLENGE });
  return principal;
}
