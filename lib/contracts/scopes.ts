/**
 * What an API key may do, chosen when it is made. Dashboard sessions are governed by workspace roles instead.
 * The route wrapper checks the scope a contract names (`Contract.scope`); operations without one (who am I, usage)
 * need none.
 */
export const API_KEY_SCOPES = ["inbox:read", "inbox:ack", "endpoints:admin", "enrichment", "keys:admin"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** A test key is a sandbox: it never manages keys (so it can never mint a live one). */
export function allowedScopes(mode: "live" | "test"): readonly ApiKeyScope[] {
  return mode === "live" ? API_KEY_SCOPES : API_KEY_SCOPES.filter((scope) => scope !== "keys:admin");
}

/** The known scopes among stored ones, in the canonical order. */
export function knownScopes(stored: readonly string[]): ApiKeyScope[] {
  return API_KEY_SCOPES.filter((scope) => stored.includes(scope));
}
