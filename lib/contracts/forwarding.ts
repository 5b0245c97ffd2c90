import { z } from "zod";
import { defineContract, envelope } from "./contract";
import { isHopByHopHeader } from "./forwarded-headers";
import { cursor, deliveryFilterBody, deliveryId, endpointId } from "./webhooks";

/** Destinations one endpoint may have. */
export const MAX_DESTINATIONS_PER_ENDPOINT = 10;
/** Deliveries one bulk replay call sends again at most (like acknowledging by filter). */
export const REPLAY_BY_FILTER_LIMIT = 1_000;
/** Response body bytes an attempt keeps. */
export const ATTEMPT_RESPONSE_BYTES = 4_096;
/** Attempts one listing returns at most (the latest). */
export const MAX_LISTED_ATTEMPTS = 200;
/** Forwards one listing returns at most (the latest): replays add one each, without end. */
export const MAX_LISTED_FORWARDS = 100;
export const MAX_DESTINATION_HEADERS = 20;

/**
 * Header names a destination may not set besides the hop-by-hop ones (./forwarded-headers.ts, ours to write): the
 * body's encoding and the signature we add. The sender (lib/forwarding/outgoing-request.ts) skips the same ones: what
 * is saved is sent.
 */
const RESERVED_DESTINATION_HEADERS: ReadonlySet<string> = new Set([
  "content-encoding",
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
]);

const destinationId = z
  .string()
  .min(1)
  .max(100)
  .meta({ description: "Destination id (`dst_…`).", example: "dst_03yH0TG7PjqWtYgfjuEGIes8nDYiEc" });

const destinationUrl = z
  .string()
  .trim()
  .max(2_048, { error: "must be at most 2048 characters" })
  .refine(
    (text) => {
      if (!URL.canParse(text)) return false;
      const url = new URL(text);
      return (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password && !url.hash;
    },
    { error: "must be an http:// or https:// URL without credentials or #fragment" },
  )
  .meta({ description: "Where deliveries are POSTed.", example: "https://example.com/webhooks" });

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const headerValue = z
  .string()
  .max(2_048, { error: "must be at most 2048 characters" })
  // What an HTTP/1.1 header value can carry (RFC 9110 §5.5): visible characters, spaces, tabs and obs-text (Latin-1).
  .refine((value) => /^[\t\x20-\x7e\x80-\xff]*$/.test(value), {
    error: "must hold visible Latin-1 characters, spaces and tabs only (no CR, LF or other controls)",
  });
const destinationHeaders = z
  .record(z.string(), headerValue)
  .superRefine((headers, context) => {
    const names = Object.keys(headers);
    if (names.length > MAX_DESTINATION_HEADERS)
      context.addIssue({ code: "custom", message: `at most ${MAX_DESTINATION_HEADERS} headers` });
    const seen = new Set<string>();
    for (const name of names) {
      const lower = name.toLowerCase();
      if (!HEADER_NAME.test(name)) context.addIssue({ code: "custom", path: [name], message: "is not a header name" });
      else if (isHopByHopHeader(lower) || RESERVED_DESTINATION_HEADERS.has(lower))
        context.addIssue({ code: "custom", path: [name], message: "is set by Signalbox and cannot be overridden" });
      else if (seen.has(lower))
        context.addIssue({ code: "custom", path: [name], message: "is repeated (names ignore case)" });
      seen.add(lower);
    }
  })
  .meta({ description: "Headers added to every forward (e.g. an `authorization` your service checks)." });

const timeoutMs = z
  .number()
  .int()
  .min(1_000, { error: "must be at least 1000" })
  .max(30_000, { error: "must be at most 30000" })
  .meta({ description: "How long one attempt may take, 1000–30000 ms (default 10000)." });

const retryInput = z
  .strictObject({
    maxAttempts: z.number().int().min(1, { error: "must be at least 1" }).max(20, { error: "must be at most 20" }),
    maxAgeSeconds: z
      .number()
      .int()
      .min(60, { error: "must be at least 60" })
      .max(7 * 86_400, { error: "must be at most 604800 (7 days)" }),
  })
  .partial()
  .meta({
    description:
      "Retries: at most `maxAttempts` attempts (1–20, default 8), none later than `maxAgeSeconds` after receipt (60 s–7 days, default 1 day).",
  });

const rateLimitPerSecond = z
  .number()
  .int()
  .min(1, { error: "must be at least 1" })
  .max(1_000, { error: "must be at most 1000" })
  .meta({ description: "At most this many attempts per second to this destination; null: no limit." });

export const destinationSchema = z
  .object({
    id: z.string(),
    endpointId: z.string(),
    url: z.string(),
    headers: z.record(z.string(), z.string()),
    timeoutMs: z.number().int(),
    retry: z.object({ maxAttempts: z.number().int(), maxAgeSeconds: z.number().int() }),
    rateLimitPerSecond: z.number().int().nullable(),
    autoAcknowledge: z.boolean().meta({
      description: "Acknowledge a delivery once every enabled destination of its endpoint accepted it (a 2xx).",
    }),
    ordered: z.boolean().meta({
      description:
        "Forward one delivery at a time, oldest first: a later delivery waits while an earlier one is retried.",
    }),
    enabled: z.boolean(),
    disabledReason: z
      .enum(["gone"])
      .nullable()
      .meta({ description: "`gone`: the destination answered 410 and was disabled by the service." }),
    health: z.object({
      failing: z.boolean().meta({ description: "The latest attempt failed." }),
      consecutiveFailures: z.number().int(),
      lastAttemptAt: z.iso.datetime().nullable(),
      lastSuccessAt: z.iso.datetime().nullable(),
      lastFailureAt: z.iso.datetime().nullable(),
      lastError: z.string().nullable(),
    }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "WebhookDestination" });

/** Creation's answer: the destination and, this once, its signing secret. */
export const createdDestinationSchema = destinationSchema
  .extend({
    signingSecret: z.string().meta({
      description:
        "Standard Webhooks secret (`whsec_…`) that signs every forward (`webhook-signature`). Shown only now.",
    }),
  })
  .meta({ id: "CreatedWebhookDestination" });

const destinationParams = z.object({ id: endpointId, destinationId });

/** A destination's settings as sent: all of them to create one (only `url` required), any of them to change one. */
const destinationInput = z.strictObject({
  url: destinationUrl,
  headers: destinationHeaders.optional(),
  timeoutMs: timeoutMs.optional(),
  retry: retryInput.optional(),
  rateLimitPerSecond: rateLimitPerSecond.nullable().optional(),
  autoAcknowledge: z.boolean().optional(),
  ordered: z.boolean().optional(),
  enabled: z.boolean().optional(),
});

export const createDestinationContract = defineContract({
  operationId: "createWebhookDestination",
  scope: "endpoints:admin",
  method: "POST",
  path: "/v1/webhook-endpoints/{id}/destinations",
  tag: "Webhooks",
  summary: "Add a destination that the endpoint's deliveries are forwarded to",
  description: `Every delivery that arrives afterwards is POSTed to \`url\` with its exact bytes and headers, signed (Standard Webhooks), and retried until it succeeds. At most ${MAX_DESTINATIONS_PER_ENDPOINT} per endpoint.`,
  auth: "workspace",
  params: z.object({ id: endpointId }),
  body: destinationInput,
  response: envelope(createdDestinationSchema),
  successStatus: 201,
  errors: ["validation_error", "unauthorized", "not_found"],
});

export const listDestinationsContract = defineContract({
  operationId: "listWebhookDestinations",
  scope: "inbox:read",
  method: "GET",
  path: "/v1/webhook-endpoints/{id}/destinations",
  tag: "Webhooks",
  summary: "List an endpoint's destinations",
  description: "Oldest first; all of them (an endpoint has at most ten).",
  auth: "workspace",
  params: z.object({ id: endpointId }),
  response: envelope(z.object({ destinations: z.array(destinationSchema) })),
  errors: ["unauthorized", "not_found"],
});

export const updateDestinationContract = defineContract({
  operationId: "updateWebhookDestination",
  scope: "endpoints:admin",
  method: "PATCH",
  path: "/v1/webhook-endpoints/{id}/destinations/{destinationId}",
  tag: "Webhooks",
  summary: "Change a destination",
  description:
    "Any of the creation fields; `retry` fields not sent keep their values. Enabling a destination the service disabled (`disabledReason: gone`) clears the reason. Forwards already queued use the new settings from their next attempt.",
  auth: "workspace",
  params: destinationParams,
  body: destinationInput
    .partial()
    // Only about an otherwise valid body: an unknown field alone is reported as itself.
    .refine((body) => Object.keys(body).length > 0, {
      error: "send at least one field to change",
      when: (payload) => payload.issues.length === 0,
    }),
  response: envelope(destinationSchema),
  errors: ["validation_error", "unauthorized", "not_found"],
});

export const deleteDestinationContract = defineContract({
  operationId: "deleteWebhookDestination",
  scope: "endpoints:admin",
  method: "DELETE",
  path: "/v1/webhook-endpoints/{id}/destinations/{destinationId}",
  tag: "Webhooks",
  summary: "Remove a destination, its queued forwards and its attempts",
  auth: "workspace",
  params: destinationParams,
  response: envelope(z.object({ id: z.string(), deleted: z.literal(true) })),
  errors: ["unauthorized", "not_found"],
});

export const FORWARD_STATUSES = ["pending", "succeeded", "failed"] as const;

export const forwardSchema = z
  .object({
    id: z.string(),
    destinationId: z.string(),
    reason: z.enum(["ingest", "replay"]),
    status: z.enum(FORWARD_STATUSES).meta({
      description: "`failed`: gave up (attempts or age exhausted, or the destination is gone); replay to try again.",
    }),
    attemptCount: z.number().int(),
    nextAttemptAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "DeliveryForward" });

export const attemptSchema = z
  .object({
    id: z.string(),
    forwardId: z.string(),
    destinationId: z.string(),
    attemptNumber: z.number().int(),
    startedAt: z.iso.datetime(),
    durationMs: z.number().int(),
    responseStatus: z.number().int().nullable(),
    responseBody: z
      .string()
      .nullable()
      .meta({ description: `The first ${ATTEMPT_RESPONSE_BYTES} bytes of the response body, as UTF-8 text.` }),
    responseBodyTruncated: z.boolean(),
    error: z.string().nullable().meta({ description: "Why the attempt failed without a usable response." }),
  })
  .meta({ id: "DeliveryAttempt" });

export const listAttemptsContract = defineContract({
  operationId: "listDeliveryAttempts",
  scope: "inbox:read",
  method: "GET",
  path: "/v1/webhook-endpoints/deliveries/{id}/attempts",
  tag: "Webhooks",
  summary: "A delivery's forwards and their attempts",
  description: `Forwards newest first, the latest ${MAX_LISTED_FORWARDS} at most; attempts oldest first, the latest ${MAX_LISTED_ATTEMPTS} at most.`,
  auth: "workspace",
  params: z.object({ id: deliveryId }),
  response: envelope(z.object({ forwards: z.array(forwardSchema), attempts: z.array(attemptSchema) })),
  errors: ["unauthorized", "not_found"],
});

export const replayDeliveryContract = defineContract({
  operationId: "replayDelivery",
  scope: "endpoints:admin",
  method: "POST",
  path: "/v1/webhook-endpoints/deliveries/{id}/replay",
  tag: "Webhooks",
  summary: "Forward a delivery again",
  description:
    "To `destinationId`, or (no body, or no `destinationId`) to every enabled destination of its endpoint. Each gets a new forward (attempts start at 1, retried as usual); its receiver sees the same `webhook-id` as before.",
  auth: "workspace",
  params: z.object({ id: deliveryId }),
  // Optional: `POST …/replay` with no body replays to every enabled destination.
  body: z.strictObject({ destinationId: destinationId.optional() }).optional(),
  response: envelope(z.object({ forwards: z.array(forwardSchema) })),
  errors: ["validation_error", "unauthorized", "not_found"],
});

export const replayDeliveriesContract = defineContract({
  operationId: "replayDeliveries",
  scope: "endpoints:admin",
  method: "POST",
  path: "/v1/webhook-endpoints/deliveries/replay",
  tag: "Webhooks",
  summary: "Forward every delivery a listing filter selects again",
  description: `The listing's filters, as in acknowledging by filter (acknowledged deliveries too, unless \`unacknowledged\` says otherwise). The oldest ${REPLAY_BY_FILTER_LIMIT.toLocaleString("en")} matches per call, each to \`destinationId\` (then only deliveries of its endpoint are walked) or to every enabled destination of its endpoint (deliveries of endpoints with none are walked past and not counted); while \`hasMore\`, call again with \`cursor: nextCursor\` and the same body. A filter on content (\`q\`, \`payload\`) looks at a window of deliveries per call, as a listing page does, so a call can replay none and still have \`hasMore\`. 400 when there is no enabled destination to replay to, or \`destinationId\` is disabled or not of \`filter.endpointId\`.`,
  auth: "workspace",
  body: z.strictObject({
    filter: deliveryFilterBody,
    destinationId: destinationId.optional(),
    cursor: cursor.meta({ description: "The `nextCursor` of the previous call, bound to the same filter. Opaque." }),
  }),
  response: envelope(
    z.object({
      replayedCount: z.number().int().meta({ description: "Deliveries this call queued again." }),
      hasMore: z.boolean(),
      nextCursor: z.string().nullable(),
    }),
  ),
  errors: ["validation_error", "unauthorized", "not_found"],
});
