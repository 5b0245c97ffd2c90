import { allowedScopes, type ApiKeyScope } from "@/lib/contracts/scopes";

/** How a stored key is told apart in the list: its first characters and an ellipsis (`sbx_live_a1B2…`). */
export function keyPrefix(start: string): string {
  return `${start}…`;
}

/** Revoked keys last; otherwise the API's order (newest first) is kept. */
export function activeFirst<K extends { revokedAt: string | null }>(keys: readonly K[]): K[] {
  return [...keys.filter((key) => key.revokedAt === null), ...keys.filter((key) => key.revokedAt !== null)];
}

export const MODE_DESCRIPTIONS = {
  live: "Does real work: enrichment calls reach providers and are charged to your balance.",
  test: "A sandbox: enrichment answers with synthetic data and never costs anything.",
} as const;

/** Why a member sees the live choice disabled. */
export const LIVE_KEYS_FOR_OWNERS =
  "Owners only: live keys spend the workspace's money. As a member you create test keys; ask an owner for a live one.";

/** What each scope lets a key do, as the create form and the list show it. */
export const SCOPE_DESCRIPTIONS: Record<ApiKeyScope, string> = {
  "inbox:read": "Read endpoints and deliveries, and follow new ones live.",
  "inbox:ack": "Acknowledge deliveries.",
  "endpoints:admin": "Create, change and delete webhook endpoints.",
  enrichment: "Priced data calls (companies, people) and video details.",
  "keys:admin": "Create and revoke API keys. Live keys only.",
};

/** The scopes a key of this mode may have, all ticked by default (a test key never manages keys). */
export function scopesFor(mode: "live" | "test"): ApiKeyScope[] {
  return [...allowedScopes(mode)];
}
