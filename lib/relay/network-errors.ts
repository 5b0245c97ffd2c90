/**
 * Why a request got no answer, in one line: `connect ECONNREFUSED 127.0.0.1:3000`, `getaddrinfo ENOTFOUND host`. Digs
 * through fetch's `fetch failed` (the cause says why) and Node's AggregateError for a host with several addresses
 * (its message is empty; each attempt's error says why).
 */
export function describeNetworkError(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof AggregateError && current.errors.length > 0) {
      current = current.errors[0];
      continue;
    }
    const next: unknown = current.cause;
    if (current.message === "fetch failed" && next instanceof Error) {
      current = next;
      continue;
    }
    const code = (current as NodeJS.ErrnoException).code;
    return current.message || code || current.name;
  }
  return String(current);
}
