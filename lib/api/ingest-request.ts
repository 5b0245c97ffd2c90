import { errorResponse } from "@/lib/api/error-response";
import { ApiError } from "@/lib/errors";
import { ingestDelivery } from "@/lib/inbox/ingest-delivery";
import type { IngestEndpoint } from "@/lib/inbox/ingest-endpoints";
import { enforceIngestRateLimit } from "@/lib/ratelimit/limits";
import { BodyTooSlowError, RequestAbortedError, type IngestBody } from "./ingest-body";
import { logIngestRefusal } from "./ingest-refusals";

/** The ingest address of a request: the endpoint id (percent-decoded) and the query string as sent, without "?". */
export interface IngestTarget {
  hookId: string;
  query: string;
}

/** One webhook request, whichever server received it (the launcher's fast path or the route handler). */
export interface IngestRequest {
  method: string;
  target: IngestTarget;
  /** Lower-cased names, values as received, repeated headers joined with ", ". */
  headers: Record<string, string>;
  sourceIp: string;
  body: IngestBody;
}

/** What a webhook request came to; each server writes it out its own way. */
export type IngestOutcome =
  | { kind: "stored"; deliveryId: string }
  /** Answered with the error body; the rest of an unread body is drained before the answer ends. */
  | { kind: "refused"; answer: Response }
  /** Slower than INGEST_MIN_BYTES_PER_SECOND: 408 and close, as Node answers a request past its timeout. */
  | { kind: "too_slow" }
  /** The sender went away mid-body: nobody is left to answer, nothing was stored. */
  | { kind: "aborted" };

/**
 * The acknowledgement of a stored delivery as JSON text: the fast path writes it without building a Response, and as a
 * string Node sends it in one write with the header block (a Buffer goes out as a second chunk of a writev).
 */
export const acknowledgement = (deliveryId: string) => JSON.stringify({ received: true, deliveryId });

/**
 * POST /webhooks/ingest/:hookId: stores the delivery (ingestDelivery: 404, 401, dedup, group commit) and says what to
 * answer. Same error body as the API. A refusal is handed to its endpoint's log of refusals (./ingest-refusals.ts)
 * without waiting. The body's share of the body budget is given back before this resolves.
 */
export async function ingestRequest(request: IngestRequest): Promise<IngestOutcome> {
  let endpoint: IngestEndpoint | null = null;
  try {
    if (request.method !== "POST") {
      throw new ApiError("method_not_allowed", `${request.method} is not allowed here. Senders POST to this address.`, {
        headers: { allow: "POST" },
      });
    }
    const { deliveryId } = await ingestDelivery({
      hookId: request.target.hookId,
      headers: request.headers,
      // Called once the endpoint is known and enabled, so only real endpoints are counted (429 before any body is read).
      readBody: async () => {
        await enforceIngestRateLimit(request.target.hookId);
        return request.body.read();
      },
      sourceIp: request.sourceIp,
      query: request.target.query,
      found: (found) => (endpoint = found),
    });
    return { kind: "stored", deliveryId };
  } catch (error) {
    if (error instanceof RequestAbortedError) return { kind: "aborted" };
    logIngestRefusal(request, endpoint, error);
    if (error instanceof BodyTooSlowError) return { kind: "too_slow" };
    return { kind: "refused", answer: errorResponse(error) };
  } finally {
    request.body.release();
  }
}
