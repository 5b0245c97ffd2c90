import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { ErrorBody } from "@/lib/contracts/errors";
import { ApiError } from "@/lib/errors";

/*
 * What the server answers when Node's HTTP parser refuses a request before any application code runs (a server's
 * `clientError`): the same statuses as Node's own answers (431, 408, 400, …), with the API's error body instead of
 * Node's empty or plain-text one.
 */

function refusalFor(code: string | undefined): ApiError {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return new ApiError(
        "request_header_fields_too_large",
        "The request's URL and headers are over 16 KiB together; send less (a long query belongs in a body).",
      );
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiError("request_timeout", "The request did not arrive in time.");
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return new ApiError("payload_too_large", "The request's chunk extensions are too large.");
    default:
      return new ApiError("validation_error", "The request is not valid HTTP/1.1.");
  }
}

/** The raw HTTP/1.1 answer for a refusal: JSON body, and the connection closes. */
export function clientErrorAnswer(code: string | undefined): string {
  const refusal = refusalFor(code);
  const body = JSON.stringify({
    success: false,
    error: { code: refusal.code, message: refusal.message },
  } satisfies ErrorBody);
  return [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}

/**
 * A `clientError` listener doing what Node's default one does, with the error body: answer unless a response on this
 * connection has started already (its bytes would be corrupted), then close the connection.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // Node's own handler checks the same private field: the response in flight on this connection, if any.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(clientErrorAnswer(error.code));
  socket.destroy(error);
}
