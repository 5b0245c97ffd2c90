import http from "node:http";
import https from "node:https";
import { describeNetworkError } from "./network-errors";
import type { AttemptOutcome } from "./output-lines";

/** How long the receiver may stay silent (no status line) before an attempt counts as failed. */
export const RECEIVER_TIMEOUT_MS = 30_000;

/**
 * POSTs one delivery's bytes to the receiver with exactly the given headers (plus the `host`, `content-length` and
 * `connection` of this request), through node:http rather than fetch, which would add headers of its own
 * (`accept`, `user-agent`, `sec-fetch-mode`) to what the sender sent. Never throws: a failure is an outcome. Redirects
 * are not followed (a 3xx is the receiver's answer, not a 2xx).
 */
export function postToReceiver(options: {
  url: URL;
  headers: Record<string, string>;
  body: Uint8Array;
  signal: AbortSignal;
  timeoutMs?: number;
}): Promise<{ outcome: AttemptOutcome; latencyMs: number }> {
  const timeoutMs = options.timeoutMs ?? RECEIVER_TIMEOUT_MS;
  return new Promise((resolve) => {
    const started = performance.now();
    const finish = (outcome: AttemptOutcome) => resolve({ outcome, latencyMs: performance.now() - started });
    try {
      const request = (options.url.protocol === "https:" ? https : http).request(
        options.url,
        {
          method: "POST",
          headers: { ...options.headers, "content-length": String(options.body.byteLength) },
          signal: options.signal,
          timeout: timeoutMs,
        },
        (response) => {
          finish({ status: response.statusCode ?? 0 });
          response.resume(); // read and drop the answer, so the connection can carry the next delivery
          response.on("error", () => {}); // a receiver that resets after its status line changes nothing
        },
      );
      request.on("timeout", () => request.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)));
      request.on("error", (error) => finish({ error: describeNetworkError(error) }));
      request.end(options.body);
    } catch (error) {
      finish({ error: describeNetworkError(error) }); // a header Node refuses to send
    }
  });
}
