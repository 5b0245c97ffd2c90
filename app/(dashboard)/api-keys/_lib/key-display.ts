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
