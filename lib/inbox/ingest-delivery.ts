import { ApiError } from "@/lib/errors";
import { createBatchQueue, type BatchQueue } from "./batch-queue";
import { dedupKey } from "./dedup-key";
import { newDeliveryId } from "./delivery-ids";
import { flushDeliveries, type DeliveryRowInput, type WriteOutcome } from "./delivery-writes";
import { eventTypeOf } from "./event-type";
import { ingestEndpoint, isEndpointId, type IngestEndpoint } from "./ingest-endpoints";
import { verifySignature, type SignatureResult } from "./signatures";

export interface IngestDeliveryOptions {
  hookId: string;
  /** Request headers: lower-cased names, values as received. */
  headers: Record<string, string>;
  /** Reads the exact request bytes (bounded by MAX_DELIVERY_BYTES); called only once the endpoint is known. */
  readBody: () => Promise<Buffer>;
  sourceIp: string;
  /** Query string without the leading "?". */
  query: string;
  /** Told which endpoint the request is for once it is found, enabled or not (for the log of refused requests). */
  found?: (endpoint: IngestEndpoint) => void;
}

export interface IngestedDelivery {
  deliveryId: string;
  /** True when this was a retry of a stored delivery (see `dedupKey`): nothing new was stored. */
  duplicate: boolean;
}

const notFound = () => new ApiError("not_found", "No webhook endpoint at this address.");

/**
 * How many times a delivery is checked against its endpoint's settings before giving up: the first check may use
 * settings remembered from an earlier request; each later one reads them afresh, so only an endpoint whose settings
 * change again between every read and write (several times within milliseconds) exhausts this.
 */
const MAX_CHECKS = 3;

// One queue per process. Up to 100 rows or 1 MiB of bodies per INSERT. One batch in flight while the next fills up;
// more (up to six, each on its own connection) only while whole batches wait, which with large bodies is most of the
// time: PostgreSQL then compresses and writes them on every core. A body near the 1 MiB limit goes alone: PostgreSQL
// spent 7.2–7.5 ms of CPU per such body that way against 8.2–9.2 ms in batches of two (the array of every body in the
// statement is built and read in one piece), and 100 KB bodies went in 5 % faster in batches of ten than of twenty.
const QUEUE_SLOT = Symbol.for("signalbox.ingestDeliveries");

function deliveries(): BatchQueue<DeliveryRowInput, WriteOutcome> {
  const holder = globalThis as typeof globalThis & { [QUEUE_SLOT]?: BatchQueue<DeliveryRowInput, WriteOutcome> };
  holder[QUEUE_SLOT] ??= createBatchQueue({
    flush: flushDeliveries,
    maxInFlight: 6,
    overlapFullBatchesOnly: true,
    maxItems: 100,
    maxWeight: 1024 * 1024,
    weight: (row) => row.body.byteLength,
  });
  return holder[QUEUE_SLOT];
}

/** The signature check of a body against an endpoint's settings; throws 401 where the endpoint rejects failures. */
function checkSignature(endpoint: IngestEndpoint, body: Buffer, headers: Record<string, string>) {
  if (!endpoint.signingScheme || !endpoint.signingSecret) return null;
  const signature: SignatureResult = verifySignature({
    scheme: endpoint.signingScheme,
    secret: endpoint.signingSecret,
    body,
    headers,
  });
  if (!signature.valid && endpoint.rejectInvalidSignatures) {
    throw new ApiError("unauthorized", `Invalid webhook signature (${signature.reason}).`);
  }
  return signature;
}

/**
 * Stores one webhook request as a pending delivery and returns its id once the row is committed. Unknown or
 * disabled endpoints → 404; an invalid signature on an endpoint that rejects them → 401; a retry (a repeated sender
 * message id; on a signed endpoint only among verified deliveries, see `dedupKey`) → the first delivery's id, nothing
 * stored (also under concurrent duplicates, via the unique index). The body is stored as it came, once: the parsed
 * view is made when a delivery is read (lib/inbox/payload.ts); only its event type is read here, once.
 */
export async function ingestDelivery(options: IngestDeliveryOptions): Promise<IngestedDelivery> {
  if (!isEndpointId(options.hookId)) throw notFound();
  const { headers } = options;
  const contentType = headers["content-type"] ?? null;
  const headersJson = Buffer.from(JSON.stringify(headers), "utf8");
  let body: Buffer | undefined;
  for (let check = 0; check < MAX_CHECKS; check += 1) {
    const endpoint = await ingestEndpoint(options.hookId, { fresh: check > 0 });
    if (!endpoint) throw notFound();
    options.found?.(endpoint);
    if (!endpoint.enabled) throw notFound();
    body ??= await options.readBody();
    const signature = checkSignature(endpoint, body, headers);
    const outcome = await deliveries().submit({
      id: newDeliveryId(),
      workspaceId: endpoint.workspaceId,
      endpointId: endpoint.id,
      endpointState: endpoint.state,
      body,
      contentType,
      headers: headersJson,
      sourceIp: options.sourceIp,
      query: options.query,
      dedupKey: dedupKey(headers, body, signature),
      signature: signature ? Buffer.from(JSON.stringify(signature), "utf8") : null,
      // Read against the settings this check uses: the INSERT stores it only while they are still the endpoint's.
      eventType: eventTypeOf({ headers, body, contentType, source: endpoint.eventTypeSource }),
      forwarding: endpoint.forwarding,
    });
    if ("error" in outcome) throw outcome.error;
    if ("deliveryId" in outcome) return outcome;
  }
  throw new Error("The webhook endpoint's settings kept changing while the delivery was being stored");
}
