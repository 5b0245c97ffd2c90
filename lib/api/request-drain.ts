import type { IncomingMessage, ServerResponse } from "node:http";
import { DRAIN_MAX_BYTES, DRAIN_MAX_MS } from "./ingest-body";

/**
 * Reads and discards the rest of a request's body, then calls `done`: `cut` when it went past DRAIN_MAX_BYTES or
 * DRAIN_MAX_MS (the sender is abusive, and the caller cuts the connection). Closing a connection with unread input
 * makes the kernel send a TCP reset, which can reach the sender before it has read our answer and discard it there.
 */
export function drainRequest(request: IncomingMessage, done: (cut: boolean) => void): void {
  let drained = 0;
  let finished = false;
  const finish = (cut: boolean) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    done(cut);
  };
  const timer = setTimeout(() => finish(true), DRAIN_MAX_MS);
  timer.unref();
  request.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_MAX_BYTES) finish(true);
  });
  request.once("end", () => finish(false));
  request.once("close", () => finish(false));
  request.resume();
}

/**
 * For a response whose handler may answer without reading the request's body (a GET sent with one, a POST refused
 * before its body was read): once the answer is written, its end waits until the body is read (within the drain
 * bounds), so the connection does not close on unread input and reset the answer away. A 401 to a large upload, or
 * a document sent to a client that put a body on its GET, arrives whole.
 */
export function endAfterRequestBody(request: IncomingMessage, response: ServerResponse): void {
  const declared =
    request.headers["content-length"] !== undefined || request.headers["transfer-encoding"] !== undefined;
  if (!declared) return;
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  response.end = ((...args: unknown[]) => {
    if (request.complete || request.destroyed) return end(...args);
    const callback = typeof args.at(-1) === "function" ? (args.pop() as () => void) : undefined;
    // The last chunk goes out now: only the end of the response waits for the body.
    if (args[0] !== undefined && args[0] !== null)
      response.write(args[0] as string | Buffer, args[1] as BufferEncoding);
    drainRequest(request, (cut) => {
      if (cut) request.destroy();
      else end(callback);
    });
    return response;
  }) as ServerResponse["end"];
}
