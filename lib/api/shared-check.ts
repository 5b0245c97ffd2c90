/**
 * A yes/no check (is this key still active?) shared by everyone asking about the same key at about the same time.
 * Each caller gets the answer of a check that began after it asked, so nothing older than its question decides: a
 * caller arriving while a check runs waits for the next one, which starts when the running one ends and answers every
 * caller that arrived meanwhile. However many callers ask, at most one check per key runs, and one more waits.
 */
export function createSharedCheck<T>(keyOf: (input: T) => string, run: (input: T) => Promise<boolean>) {
  const checks = new Map<string, { running: Promise<boolean> | null; next: Promise<boolean> | null }>();
  return function check(input: T): Promise<boolean> {
    const key = keyOf(input);
    const state = checks.get(key) ?? { running: null, next: null };
    checks.set(key, state);
    if (state.next) return state.next;
    // Started after the running check (if any) settles, in a microtask at the earliest: every caller of this tick
    // shares it.
    const next = (state.running ?? Promise.resolve(true))
      .catch(() => true)
      .then(() => {
        state.next = null;
        const running = run(input);
        state.running = running;
        const settle = () => {
          if (state.running === running) state.running = null;
          if (!state.running && !state.next) checks.delete(key);
        };
        running.then(settle, settle);
        return running;
      });
    state.next = next;
    return next;
  };
}
