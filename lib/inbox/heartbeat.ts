/*
 * One timer for every open event stream of the process: all streams beat in the same tick, so the revocation checks
 * their heartbeats trigger are shared per principal (see isPrincipalActive) instead of one per stream at scattered
 * times. The timer runs only while some stream listens.
 */
const HEARTBEAT_MS = 15_000;

const callbacks = new Set<() => void>();
let timer: NodeJS.Timeout | null = null;

/** Calls `callback` every 15 s until `signal` aborts. */
export function onHeartbeat(callback: () => void, signal: AbortSignal): void {
  if (signal.aborted) return;
  callbacks.add(callback);
  timer ??= setInterval(() => {
    for (const beat of callbacks) beat();
  }, HEARTBEAT_MS);
  signal.addEventListener(
    "abort",
    () => {
      callbacks.delete(callback);
      if (callbacks.size === 0 && timer) {
        clearInterval(timer);
        timer = null;
      }
    },
    { once: true },
  );
}
