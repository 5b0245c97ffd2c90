import type { ServerResponse } from "node:http";

/**
 * A fake upstream's slow mode: answers after `delayMs`, unless the client gives up first (then nothing is written to
 * the closed socket). `pending` lets the server's `close()` cancel answers still waiting.
 */
export function answerLater(
  response: ServerResponse,
  pending: Set<NodeJS.Timeout>,
  delayMs: number,
  answer: () => void,
): void {
  const timer = setTimeout(() => {
    pending.delete(timer);
    answer();
  }, delayMs);
  pending.add(timer);
  response.on("close", () => {
    clearTimeout(timer);
    pending.delete(timer);
  });
}
