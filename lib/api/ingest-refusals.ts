import { REJECTION_BODY_BYTES, type RejectionReason } from "@/lib/contracts/rejections";
import { ApiError } from "@/lib/errors";
import type { IngestEndpoint } from "@/lib/inbox/ingest-endpoints";
import {
  countUnknownEndpointRequest,
  logRejection,
  logRejectionOfHookId,
  type RefusedRequest,
  type Refusal,
} from "@/lib/inbox/rejection-log";
import { BodyTooSlowError } from "./ingest-body";
import type { IngestRequest } from "./ingest-request";

/** The refusals that are logged, by the error code the sender is answered with; any other error is not a refusal. */
const REASONS: Partial<Record<ApiError["code"], RejectionReason>> = {
  unauthorized: "invalid_signature",
  not_found: "endpoint_disabled",
  method_not_allowed: "method_not_allowed",
  payload_too_large: "payload_too_large",
  rate_limited: "rate_limited",
};

const TOO_SLOW: Refusal = {
  status: 408,
  reason: "body_too_slow",
  message: "The body arrived slower than INGEST_MIN_BYTES_PER_SECOND: the connection was closed.",
};

function refusalOf(error: unknown): Refusal | null {
  if (error instanceof BodyTooSlowError) return TOO_SLOW;
  if (!(error instanceof ApiError)) return null;
  const reason = REASONS[error.code];
  return reason ? { status: error.status, reason, message: error.message } : null;
}

function refusedRequest(request: IngestRequest): RefusedRequest {
  const { size, head } = request.body.received(REJECTION_BODY_BYTES);
  return {
    method: request.method,
    query: request.target.query,
    headers: request.headers,
    sourceIp: request.sourceIp,
    bodyHead: head,
    bodyBytesRead: size,
  };
}

/**
 * Hands a refused ingest request to the log of its endpoint's refusals (lib/inbox/rejection-log.ts), which records it
 * in the background, or counts it. `endpoint`: the endpoint ingest found, null when it was not looked up (a method
 * other than POST) or does not exist. Called before the body is released; never delays the answer.
 */
export function logIngestRefusal(request: IngestRequest, endpoint: IngestEndpoint | null, error: unknown): void {
  const refusal = refusalOf(error);
  if (!refusal) return; // not a refusal of the request (the database is away, …)
  if (refusal.reason === "method_not_allowed")
    return logRejectionOfHookId(request.target.hookId, refusal, refusedRequest(request));
  // A 404 is a disabled endpoint's only when one was found disabled (an enabled one found was deleted since).
  if (refusal.reason === "endpoint_disabled" && (!endpoint || endpoint.enabled)) return countUnknownEndpointRequest();
  if (endpoint) logRejection(endpoint, refusal, () => refusedRequest(request));
}
