import { z } from "zod";
import { defineContract, envelope } from "./contract";
import { compareInstants, isInstant } from "./instant";
import { MAX_PAYLOAD_FILTER_CHARS, payloadFilterProblem } from "./payload-filter";
import { effectiveRetentionSchema, retentionPolicyInput, retentionPolicySchema } from "./retention";

/**
 * Body bytes one page of deliveries carries at most (their `sizeBytes`), whatever its `limit`: a page of a hundred
 * 1 MiB deliveries would otherwise be a ~100 MB answer built in memory at once.
 */
export const DELIVERY_PAGE_BYTES = 8 * 1_048_576;

/**
 * Most bytes one delivery's compressed body may decode to, every stage of a stacked coding (`gzip, br`) counted: four
 * times the 1 MiB body limit.
 */
export const MAX_DECODED_BYTES = 4 * 1_048_576;

/**
 * Bytes one page may decode from compressed bodies (`Content-Encoding`), what failed decodes produced counted too: a
 * page of a hundred bodies that each decode to 4 MiB would otherwise hold 400 MiB of text at once.
 */
export const DELIVERY_PAGE_DECODED_BYTES = 8 * 1_048_576;

/**
 * Deliveries one acknowledgement by filter acknowledges at most (oldest first); `hasMore` says to call again. Each row
 * costs a non-HOT update and a notification (about 1 ms on a loaded 2-core machine): 1,000 keeps a call, and the row
 * locks it holds, near a second, far from DATABASE_STATEMENT_TIMEOUT_MS (10,000 took 12–16 s).
 */
export const ACK_BY_FILTER_LIMIT = 1_000;

/** Characters of a delivery's `preview` at most (before the `…` that marks a cut). */
export const DELIVERY_PREVIEW_CHARS = 120;

/**
 * How far one page of a listing filtered by content (`q`, `payload`) looks: at most this many deliveries, in order from
 * the cursor, and at most `DELIVERY_SCAN_BYTES` of their bodies (the first is always looked at). Content is not
 * indexed (an index would cost every ingest), so this is what bounds a page's time: chosen by measurement, see README
 * "Searching deliveries".
 */
export const DELIVERY_SCAN_ROWS = 10_000;
export const DELIVERY_SCAN_BYTES = 16 * 1_048_576;

/** `q`: shortest and longest search text, in characters. */
export const MIN_SEARCH_CHARS = 3;
export const MAX_SEARCH_CHARS = 200;

/**
 * Largest body ingest reads for an event type (`eventType`): larger bodies, and bodies sent with a Content-Encoding
 * (not decoded at ingest), get only a type their headers carry.
 */
export const EVENT_TYPE_BODY_LIMIT = 256 * 1024;

/** Characters of an event type kept (longer ones are cut). */
export const MAX_EVENT_TYPE_LENGTH = 200;

export const SIGNATURE_SCHEME_NAMES = ["standard-webhooks", "stripe", "github", "shopify", "slack"] as const;

export const endpointId = z
  .string()
  .min(1)
  .max(100)
  .meta({ description: "Webhook endpoint id (`we_…`).", example: "we_03yH0TG7PjqWtYgfjuEGIes8nDYiEc" });
export const deliveryId = z
  .string()
  .min(1)
  .max(100)
  .meta({ description: "Delivery id (a UUID).", example: "0b7c6f0e-6a5e-4a0e-9a8e-3d2b1c0f9e8d" });
/** The most items a page of a listing holds. */
export const MAX_PAGE_LIMIT = 100;
export const pageLimit = z.coerce
  .number({ error: `must be a whole number from 1 to ${MAX_PAGE_LIMIT}` })
  .int({ error: `must be a whole number from 1 to ${MAX_PAGE_LIMIT}` })
  .min(1, { error: "must be at least 1" })
  .max(MAX_PAGE_LIMIT, { error: `must be at most ${MAX_PAGE_LIMIT}` })
  .default(50)
  .meta({ description: `Page size, 1–${MAX_PAGE_LIMIT} (default 50).` });
// A cursor carries the scope it is bound to: every listing filter at once (content filters as digests) fits.
export const cursor = z
  .string()
  .min(1)
  .max(1_000)
  .optional()
  .meta({ description: "`nextCursor` of the previous page. Opaque." });
const INSTANT_ERROR = "must be an ISO 8601 date-time with `Z` or an offset, e.g. `2026-01-01T00:00:00Z`";
/** A bound on receipt times. No zone means no instant (whose midnight?), so a zone is required. */
const receiptTime = z.iso
  .datetime({ offset: true, error: INSTANT_ERROR, abort: true })
  .refine(isInstant, { error: "must fall in the years 0001 to 9999 (UTC)" });
const booleanText = z
  .enum(["true", "false"], { error: "must be `true` or `false`" })
  .transform((value) => value === "true");

export const signatureResultSchema = z
  .object({
    scheme: z.enum(SIGNATURE_SCHEME_NAMES),
    valid: z.boolean(),
    reason: z
      .enum(["missing_header", "malformed_header", "timestamp_out_of_tolerance", "mismatch", "invalid_secret"])
      .nullable(),
  })
  .meta({
    id: "SignatureResult",
    description: "Outcome of the endpoint's signature check; the headers themselves are stored unchanged.",
  });

export const formFieldSchema = z
  .union([
    z.object({ name: z.string(), value: z.string() }),
    z.object({
      name: z.string(),
      filename: z.string(),
      type: z.string().nullable().meta({ description: "The part's Content-Type, null when it gave none." }),
      size: z.number().int().meta({ description: "Bytes of the file's content (which is not repeated here)." }),
    }),
  ])
  .meta({ id: "FormField", description: "A text field, or a file part by name, filename, type and size." });

export const CONTENT_DECODING_STATUSES = ["decoded", "too_large", "invalid", "unsupported"] as const;

export const contentDecodingSchema = z
  .object({
    encoding: z.string().meta({
      description:
        "The codings the sender applied, lower-cased, in order (`gzip`, `gzip, br`); `identity` is left out.",
      example: "gzip",
    }),
    status: z.enum(CONTENT_DECODING_STATUSES).meta({
      description: `\`decoded\`: \`rawPayload\` and \`formFields\` are made from the decoded body. Otherwise they are made from the bytes as stored: \`too_large\` (it decodes to more than ${MAX_DECODED_BYTES / 1_048_576} MiB), \`invalid\` (corrupt or truncated data), \`unsupported\` (a coding other than gzip, x-gzip, deflate, br).`,
    }),
  })
  .meta({
    id: "ContentDecoding",
    description: "How a body sent with `Content-Encoding` was decoded for the parsed view; `/raw` serves it as sent.",
  });

export const deliverySchema = z
  .object({
    id: z.string().meta({ description: "Unique delivery id (UUID)." }),
    webhookEndpointId: z.string(),
    workspaceId: z.string(),
    rawPayload: z.unknown().optional().meta({
      description:
        'A JSON body as the sender wrote it (key order, number text, escapes and duplicate keys kept; only whitespace outside strings removed), or `{ "raw": "<body as text>" }` for any other body. Left out of listings asked for with `withPayload=false`.',
    }),
    formFields: z.array(formFieldSchema).nullable().optional().meta({
      description:
        "An `application/x-www-form-urlencoded` or `multipart/form-data` body decoded as fields, in the order sent (repeated names kept); null for any other body. Left out with `rawPayload`.",
    }),
    contentDecoding: contentDecodingSchema.nullable().optional().meta({
      description:
        "Null when the body had no `Content-Encoding` (or only `identity`); else how it was decoded for `rawPayload` and `formFields`. Left out with `rawPayload`.",
    }),
    headers: z
      .record(z.string(), z.string())
      .meta({ description: "Request headers: lower-cased names, values as received." }),
    sourceIp: z.string(),
    createdAt: z.iso.datetime().meta({ description: "Receipt time, ISO 8601 UTC with milliseconds." }),
    acknowledgedAt: z.iso.datetime().nullable().meta({ description: "When it was acknowledged; null while pending." }),
    contentType: z.string().nullable(),
    sizeBytes: z.number().int(),
    query: z.string().meta({ description: "Query string of the ingest request, without `?`." }),
    signature: signatureResultSchema.nullable(),
    preview: z.string().meta({
      description: `One line that tells deliveries apart, made from the start of the body only (even with \`withPayload=false\`): compact JSON text, form fields as \`a=1 b=2\`, multipart field names, text with its whitespace collapsed, or \`binary, 3.2 KB\`; at most ${DELIVERY_PREVIEW_CHARS} characters, then \`…\`. Empty for an empty body. For display, not parsing.`,
      example: '{"action":"opened","number":42,"pull_request":{"id":1,"title":"Fix the build"…',
    }),
    eventType: z
      .string()
      .nullable()
      .meta({
        description: `What happened, as the sender named it (\`issues.opened\`, \`invoice.paid\`, \`orders/create\`), read once at receipt; null when none was found. From the endpoint's \`eventTypeSource\` if set and present, else the senders' own places: \`X-GitHub-Event\` with the payload's \`action\`, \`X-Shopify-Topic\`, \`X-Gitlab-Event\`, \`ce-type\`, Twilio's \`CallStatus\`/\`MessageStatus\`/\`SmsStatus\` (\`call.completed\`, \`message.delivered\`), Slack's \`event.type\` in an \`event_callback\`, else a top-level string \`type\`, \`event\`, \`event_type\` or \`eventType\` of a JSON body (or of a form body's \`payload\` field). Bodies over ${EVENT_TYPE_BODY_LIMIT / 1024} KiB or sent with a \`Content-Encoding\` give only header-borne types. Trimmed, at most ${MAX_EVENT_TYPE_LENGTH} characters. Deliveries received before event types existed have null.`,
        example: "issues.opened",
      }),
  })
  .meta({ id: "Delivery" });

const signingInput = z
  .strictObject({
    scheme: z.enum(SIGNATURE_SCHEME_NAMES),
    secret: z.string().min(1, { error: "must not be empty" }).max(500, { error: "must be at most 500 characters" }),
    rejectInvalid: z
      .boolean()
      .default(false)
      .meta({ description: "Answer 401 and store nothing when the signature is not valid." }),
  })
  .meta({ description: "Check senders' signatures with this scheme and secret." });

const EVENT_TYPE_PATH_SEGMENTS = 16;
const eventTypeHeader = z
  .string()
  .max(100, { error: "must be at most 100 characters" })
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: "must be a header name (letters, digits, `-` and the like)" })
  .transform((header) => header.toLowerCase())
  .meta({
    description: "A request header holding the type, e.g. `X-Event-Name` (stored lower-cased).",
    example: "x-event-name",
  });
const eventTypePath = z
  .string()
  .max(200, { error: "must be at most 200 characters" })
  .refine(
    (path) =>
      !/[\u0000-\u001f]/.test(path) &&
      path.split(".").length <= EVENT_TYPE_PATH_SEGMENTS &&
      path.split(".").every((segment) => segment !== ""),
    {
      error: `must be names and array indexes joined by dots, at most ${EVENT_TYPE_PATH_SEGMENTS}, e.g. \`data.object.type\``,
    },
  )
  .meta({
    description:
      "A dotted path into a JSON body (or a form body's `payload` JSON) to a string: member names joined by `.`, a number indexing an array (`events.0.type`). Names containing `.` cannot be reached.",
    example: "data.object.type",
  });

export const eventTypeSourceSchema = z
  .union([z.object({ header: z.string() }), z.object({ jsonPath: z.string() })])
  .nullable()
  .meta({
    id: "EventTypeSource",
    description:
      "Where this endpoint's senders put the event type, tried before the built-in senders' places (which still apply when it is absent from a delivery); null: only those.",
  });

const eventTypeSourceInput = z
  .strictObject({ header: eventTypeHeader.optional(), jsonPath: eventTypePath.optional() })
  .refine((source) => (source.header === undefined) !== (source.jsonPath === undefined), {
    error: "set exactly one of `header` and `jsonPath`",
  })
  .transform((source) => (source.header !== undefined ? { header: source.header } : { jsonPath: source.jsonPath! }))
  .meta({ description: "Read each delivery's `eventType` from this header, or this JSON path, first." });

const retentionInput = retentionPolicyInput.nullable().meta({
  description:
    "How long this endpoint's deliveries are kept; null (the default): as the workspace's `deliveryRetention` says. `{}` (both null) keeps everything whatever the workspace default.",
});

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    workspaceId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    ingestUrl: z.string().meta({ description: "Where senders POST. The id in it is the only secret a sender needs." }),
    enabled: z.boolean(),
    signing: z
      .object({
        scheme: z.enum(SIGNATURE_SCHEME_NAMES),
        rejectInvalid: z.boolean(),
        secretHint: z.string().meta({
          description: 'The secret\'s last characters after "…": at most 4, never more than a quarter of the secret.',
        }),
      })
      .nullable(),
    eventTypeSource: eventTypeSourceSchema,
    retention: retentionPolicySchema.nullable().meta({
      description: "This endpoint's own retention policy; null: the workspace's `deliveryRetention` applies.",
    }),
    effectiveRetention: effectiveRetentionSchema,
    pendingCount: z.number().int(),
    totalCount: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "WebhookEndpoint" });

const name = z
  .string()
  .trim()
  .min(1, { error: "must not be empty" })
  .max(100, { error: "must be at most 100 characters" });
const description = z.string().trim().max(500, { error: "must be at most 500 characters" });
const endpointParams = z.object({ id: endpointId });
const deliveryParams = z.object({ id: deliveryId });
const deliveryPage = envelope(z.object({ deliveries: z.array(deliverySchema), nextCursor: z.string().nullable() }));
const endpointEnvelope = envelope(webhookEndpointSchema);
const deliveryEnvelope = envelope(deliverySchema);

export const createWebhookEndpointContract = defineContract({
  operationId: "createWebhookEndpoint",
  scope: "endpoints:admin",
  method: "POST",
  path: "/v1/webhook-endpoints",
  tag: "Webhooks",
  summary: "Create a webhook endpoint",
  auth: "workspace",
  body: z.strictObject({
    name,
    description: description.optional(),
    signing: signingInput.optional(),
    eventTypeSource: eventTypeSourceInput.nullable().optional(),
    retention: retentionInput.optional(),
  }),
  response: endpointEnvelope,
  successStatus: 201,
  errors: ["validation_error", "unauthorized"],
});

export const listWebhookEndpointsContract = defineContract({
  operationId: "listWebhookEndpoints",
  scope: "inbox:read",
  method: "GET",
  path: "/v1/webhook-endpoints",
  tag: "Webhooks",
  summary: "List webhook endpoints",
  description: "Newest first, paged with `cursor`.",
  auth: "workspace",
  query: z.object({ limit: pageLimit, cursor }),
  response: envelope(z.object({ endpoints: z.array(webhookEndpointSchema), nextCursor: z.string().nullable() })),
  errors: ["validation_error", "unauthorized"],
});

export const getWebhookEndpointContract = defineContract({
  operationId: "getWebhookEndpoint",
  scope: "inbox:read",
  method: "GET",
  path: "/v1/webhook-endpoints/{id}",
  tag: "Webhooks",
  summary: "Get a webhook endpoint",
  auth: "workspace",
  params: endpointParams,
  response: endpointEnvelope,
  errors: ["unauthorized", "not_found"],
});

export const updateWebhookEndpointContract = defineContract({
  operationId: "updateWebhookEndpoint",
  scope: "endpoints:admin",
  method: "PATCH",
  path: "/v1/webhook-endpoints/{id}",
  tag: "Webhooks",
  summary: "Update a webhook endpoint",
  description:
    "Change any of `name`, `description`, `enabled`, `signing`, `eventTypeSource`, `retention`; `signing: null` stops checking signatures, `eventTypeSource: null` leaves event types to the built-in senders' places (deliveries already stored keep theirs), `retention: null` returns to the workspace's `deliveryRetention`. A disabled endpoint answers 404 to senders.",
  auth: "workspace",
  params: endpointParams,
  body: z
    .strictObject({
      name: name.optional(),
      description: description.nullable().optional(),
      enabled: z.boolean().optional(),
      signing: signingInput.nullable().optional(),
      eventTypeSource: eventTypeSourceInput.nullable().optional(),
      retention: retentionInput.optional(),
    })
    .refine((body) => Object.keys(body).length > 0, { error: "send at least one field to change" }),
  response: endpointEnvelope,
  errors: ["validation_error", "unauthorized", "not_found"],
});

export const deleteWebhookEndpointContract = defineContract({
  operationId: "deleteWebhookEndpoint",
  scope: "endpoints:admin",
  method: "DELETE",
  path: "/v1/webhook-endpoints/{id}",
  tag: "Webhooks",
  summary: "Delete a webhook endpoint and all its deliveries",
  auth: "workspace",
  params: endpointParams,
  response: envelope(z.object({ id: z.string(), deleted: z.literal(true), deletedDeliveries: z.number().int() })),
  errors: ["unauthorized", "not_found"],
});

/** The filters that select deliveries: the listing's, and every operation over a listing's deliveries. */
const deliveryFilterFields = z.object({
  endpointId: endpointId.optional(),
  unacknowledged: booleanText
    .optional()
    .meta({ description: "`true`: only pending deliveries; `false`: only acknowledged ones." }),
  since: receiptTime.optional().meta({
    description:
      "Only deliveries received at or after this time (`createdAt` ≥ `since`; inclusive). ISO 8601 with `Z` or an offset.",
    example: "2026-01-01T00:00:00Z",
  }),
  until: receiptTime.optional().meta({
    description:
      "Only deliveries received before this time (`createdAt` < `until`; exclusive). ISO 8601 with `Z` or an offset.",
    example: "2026-01-02T00:00:00Z",
  }),
  q: z
    .string()
    .refine((text) => [...text].length >= MIN_SEARCH_CHARS, {
      error: `must be at least ${MIN_SEARCH_CHARS} characters`,
    })
    .refine((text) => [...text].length <= MAX_SEARCH_CHARS, {
      error: `must be at most ${MAX_SEARCH_CHARS} characters`,
    })
    .refine((text) => !text.includes("\u0000"), { error: "must not contain NUL" })
    .optional()
    .meta({
      description: `Text anywhere in the delivery: its body (the bytes as stored; not compressed bodies, nor bodies with a NUL byte), a header (\`name: value\`, names lower-case) or its query string (as sent, percent-encoded). A substring, ASCII letters matched case-insensitively, every other character exactly (\`%\`, \`_\` and \`\\\` too). ${MIN_SEARCH_CHARS}–${MAX_SEARCH_CHARS} characters. Not indexed: each page looks at a bounded window of deliveries (see the description).`,
      example: "cus_9s6XKzkNRiz8i3",
    }),
  payload: z
    .string()
    .max(MAX_PAYLOAD_FILTER_CHARS, { error: `must be at most ${MAX_PAYLOAD_FILTER_CHARS} characters` })
    .superRefine((text, context) => {
      const problem = payloadFilterProblem(text);
      if (problem) context.addIssue({ code: "custom", message: problem });
    })
    .optional()
    .meta({
      description: `A JSON object (URL-encoded): only deliveries whose JSON body contains it, as PostgreSQL's jsonb \`@>\` decides (\`{"data":{"object":{"id":"in_1"}}}\` matches a body with that id among other fields; arrays match by containment). Bodies that are not JSON (by \`Content-Type\`), not UTF-8, or compressed never match. At most ${MAX_PAYLOAD_FILTER_CHARS} characters. Not indexed: each page looks at a bounded window of deliveries (see the description).`,
      example: '{"type":"invoice.paid"}',
    }),
  eventType: z
    .string()
    .min(1, { error: "must not be empty" })
    .max(MAX_EVENT_TYPE_LENGTH, { error: `must be at most ${MAX_EVENT_TYPE_LENGTH} characters` })
    .optional()
    .meta({
      description: "Only deliveries of this `eventType` (exact, case-sensitive; one type).",
      example: "issues.opened",
    }),
});

/** A filter whose `since` is after its `until` is refused rather than answered with nothing. */
function withSinceNotAfterUntil<T extends z.ZodType<{ since?: string; until?: string }>>(schema: T) {
  // Runs even when a field failed, so it compares only two valid times (compareInstants is null otherwise).
  return schema.refine(
    (query) => !query.since || !query.until || (compareInstants(query.since, query.until) ?? 0) <= 0,
    {
      error: "must not be after `until`",
      path: ["since"],
    },
  );
}

export const listDeliveriesContract = defineContract({
  operationId: "listDeliveries",
  scope: "inbox:read",
  method: "GET",
  path: "/v1/webhook-endpoints/deliveries",
  tag: "Webhooks",
  summary: "List deliveries",
  description: `Newest first by default (\`order=asc\` for oldest first), keyset-paged: following \`nextCursor\` visits every delivery that existed when the walk began exactly once, however many arrive meanwhile. A page holds at most \`limit\` deliveries and at most ${DELIVERY_PAGE_BYTES / 1_048_576} MiB of bodies (their \`sizeBytes\`; a single larger delivery gets a page of its own) and at most ${DELIVERY_PAGE_DECODED_BYTES / 1_048_576} MiB decoded from compressed bodies (\`Content-Encoding\`, see \`contentDecoding\`), so a page can hold fewer than \`limit\` with more to come: stop only when \`nextCursor\` is null. \`withPayload=false\` leaves \`rawPayload\` out (then only \`limit\` cuts the page); fetch a delivery, or its \`/raw\` bytes, for its body. \`since\` (inclusive) and \`until\` (exclusive) narrow the listing to a window of receipt times; like every filter, they are bound into the cursor. \`q\` and \`payload\` match content, which is not indexed: a page filtered by either looks at no more than ${DELIVERY_SCAN_ROWS.toLocaleString("en")} deliveries (after the other filters, in order from the cursor) and ${DELIVERY_SCAN_BYTES / 1_048_576} MiB of their bodies, and returns the matches among them — fewer than \`limit\`, or none, while \`nextCursor\` still continues after the last delivery it looked at. Following \`nextCursor\` until it is null visits every match exactly once.`,
  auth: "workspace",
  query: withSinceNotAfterUntil(
    deliveryFilterFields.extend({
      limit: pageLimit,
      cursor,
      order: z
        .enum(["desc", "asc"], { error: "must be `desc` or `asc`" })
        .default("desc")
        .meta({ description: "`desc`: newest first (the default); `asc`: oldest first." }),
      withPayload: booleanText
        .default(true)
        .meta({ description: "`false`: leave each delivery's `rawPayload` out (default `true`)." }),
    }),
  ),
  response: deliveryPage,
  errors: ["validation_error", "unauthorized"],
});

/** Most event types one answer lists. */
export const MAX_LISTED_EVENT_TYPES = 200;

export const listDeliveryEventTypesContract = defineContract({
  operationId: "listDeliveryEventTypes",
  scope: "inbox:read",
  method: "GET",
  path: "/v1/webhook-endpoints/deliveries/event-types",
  tag: "Webhooks",
  summary: "List the event types received",
  description: `The distinct \`eventType\` values of the workspace's deliveries (of one endpoint with \`endpointId\`), in the database's sort order, at most ${MAX_LISTED_EVENT_TYPES}: \`truncated\` says more exist. Read by stepping from one type to the next in the event type index, one lookup per type rather than a pass over the deliveries (with \`endpointId\`, a step also passes over other endpoints' deliveries of the types in between).`,
  auth: "workspace",
  query: z.object({ endpointId: endpointId.optional() }),
  response: envelope(
    z.object({
      eventTypes: z.array(z.string()),
      truncated: z
        .boolean()
        .meta({ description: `More than ${MAX_LISTED_EVENT_TYPES} types exist; the first are listed.` }),
    }),
  ),
  errors: ["validation_error", "unauthorized"],
});

export const getDeliveryContract = defineContract({
  operationId: "getDelivery",
  scope: "inbox:read",
  method: "GET",
  path: "/v1/webhook-endpoints/deliveries/{id}",
  tag: "Webhooks",
  summary: "Get a delivery",
  auth: "workspace",
  params: deliveryParams,
  response: deliveryEnvelope,
  errors: ["unauthorized", "not_found"],
});

export const getDeliveryRawBodyContract = defineContract({
  operationId: "getDeliveryRawBody",
  scope: "inbox:read",
  method: "GET",
  path: "/v1/webhook-endpoints/deliveries/{id}/raw",
  tag: "Webhooks",
  summary: "The exact bytes a delivery was sent with",
  description:
    "Byte for byte, with the original `Content-Type` (`application/octet-stream` when the sender gave none), so a consumer can verify the sender's signature. Served as a download that browsers never render.",
  auth: "workspace",
  params: deliveryParams,
  response: z.string().meta({ format: "binary", description: "The request body exactly as the sender sent it." }),
  responseMediaType: "*/*",
  responseHeaders: {
    "Content-Disposition": 'Always `attachment; filename="delivery-<id>.bin"`.',
    "Content-Security-Policy": "Always `default-src 'none'; sandbox`.",
    "X-Content-Type-Options": "Always `nosniff`.",
  },
  errors: ["unauthorized", "not_found"],
});

export const acknowledgeDeliveryContract = defineContract({
  operationId: "acknowledgeDelivery",
  scope: "inbox:ack",
  method: "POST",
  path: "/v1/webhook-endpoints/deliveries/{id}/ack",
  tag: "Webhooks",
  summary: "Acknowledge a delivery",
  description: "No body. Acknowledging again changes nothing and keeps the first `acknowledgedAt`.",
  auth: "workspace",
  params: deliveryParams,
  response: deliveryEnvelope,
  errors: ["unauthorized", "not_found"],
});

const bulkAckIds = z
  .array(z.string().min(1).max(100))
  .min(1, { error: "send 1 to 100 ids" })
  .max(100, { error: "send 1 to 100 ids" })
  // Delivery ids are UUIDs, which compare without regard to case.
  .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, { error: "ids must be unique" });

/**
 * The listing's filters as an object, spelled as in its query string (`"unacknowledged": "true"`), so a client sends
 * the filter it lists with. Strict: a misspelt field would otherwise widen the filter to everything it acknowledges.
 */
export const deliveryFilterBody = withSinceNotAfterUntil(z.strictObject(deliveryFilterFields.shape));
const bulkAckFilter = deliveryFilterBody.meta({
  description: `The listing's filters (the same fields, spelled as in its query string: \`{"endpointId": "we_…", "unacknowledged": "true"}\`); \`{}\` selects every pending delivery of the workspace. Only pending deliveries are acknowledged, the oldest ${ACK_BY_FILTER_LIMIT.toLocaleString("en")} per call.`,
});

/** The answer to acknowledging by `ids`. */
export const idsAcknowledgementSchema = z.object({
  acknowledged: z.array(z.string()),
  alreadyAcknowledged: z.array(z.string()),
  notFound: z.array(z.string()),
});

/** The answer to acknowledging by `filter`. */
export const filterAcknowledgementSchema = z.object({
  acknowledgedCount: z.number().int().meta({ description: "Deliveries this call acknowledged." }),
  hasMore: z
    .boolean()
    .meta({ description: "More pending deliveries may match beyond this call's bound: call again with `nextCursor`." }),
  nextCursor: z
    .string()
    .nullable()
    .meta({ description: "Where the next call goes on (send it as `cursor` with the same `filter`); null when done." }),
});

export const acknowledgeDeliveriesContract = defineContract({
  operationId: "acknowledgeDeliveries",
  scope: "inbox:ack",
  method: "POST",
  path: "/v1/webhook-endpoints/deliveries/ack",
  tag: "Webhooks",
  summary: "Acknowledge many deliveries at once",
  description: `Send exactly one of \`ids\` or \`filter\`; either way one atomic statement. With \`ids\` (1–100): each id lands in exactly one of the three lists; unknown ids and other workspaces' ids are \`notFound\`. With \`filter\`: the oldest ${ACK_BY_FILTER_LIMIT.toLocaleString("en")} pending deliveries that match are acknowledged, answering \`{ acknowledgedCount, hasMore, nextCursor }\`; while \`hasMore\` is true, call again with the same \`filter\` and \`cursor: nextCursor\` (add \`until\` to stop at deliveries that keep arriving). A filter on content (\`q\`, \`payload\`) is not indexed: like a listing page, each call looks at a window of at most ${DELIVERY_SCAN_ROWS.toLocaleString("en")} pending deliveries and ${DELIVERY_SCAN_BYTES / 1_048_576} MiB of their bodies, so a call can acknowledge none and still have \`hasMore\`. A delivery acknowledged meanwhile by another call keeps its first \`acknowledgedAt\` and is not counted.`,
  auth: "workspace",
  body: z
    .strictObject({
      ids: bulkAckIds.optional(),
      filter: bulkAckFilter.optional(),
      cursor: cursor.meta({
        description: "With `filter`: the `nextCursor` of the previous call, bound to the same filter. Opaque.",
      }),
    })
    .superRefine((body, context) => {
      // Neither: named as `ids` was before `filter` existed, so callers of the ids form see the same detail.
      if (body.ids === undefined && body.filter === undefined)
        context.addIssue({ code: "custom", path: ["ids"], message: "send `ids` (1 to 100) or `filter`" });
      if (body.ids !== undefined && body.filter !== undefined)
        context.addIssue({ code: "custom", path: [], message: "send either `ids` or `filter`, not both" });
      if (body.cursor !== undefined && body.filter === undefined)
        context.addIssue({ code: "custom", path: ["cursor"], message: "goes with `filter` only" });
    }),
  // Two shapes with no field in common: a client tells them apart by key, and no field has two types.
  response: envelope(z.union([idsAcknowledgementSchema, filterAcknowledgementSchema])),
  errors: ["validation_error", "unauthorized"],
});

/** The last line of a complete export; a stream that ends without it was cut. */
export const deliveryExportEndSchema = z.object({ type: z.literal("end"), count: z.number().int() });

export const exportDeliveriesContract = defineContract({
  operationId: "exportDeliveries",
  scope: "inbox:read",
  method: "GET",
  path: "/v1/webhook-endpoints/deliveries/export",
  tag: "Webhooks",
  summary: "Export deliveries as NDJSON",
  description:
    'Every delivery the listing\'s filters select, oldest first (`createdAt`, then `id`), streamed as newline-delimited JSON: one delivery per line, then a last line `{"type":"end","count":<deliveries>}`. A stream without that line was cut (a dropped connection, or a server error after the first line, which aborts the stream): start again, or continue with `since`. Deliveries received after the export began are left out, so it ends. `body=parsed` (the default): each line is the delivery as the listing shows it; `body=base64`: the parsed view (`rawPayload`, `formFields`, `contentDecoding`) is replaced by `rawBody`, the exact bytes in base64, for re-verifying signatures. Read in chunks as the client reads, so memory stays bounded whatever the count.',
  auth: "workspace",
  query: withSinceNotAfterUntil(
    deliveryFilterFields.extend({
      body: z
        .enum(["parsed", "base64"], { error: "must be `parsed` or `base64`" })
        .default("parsed")
        .meta({ description: "`parsed` (default): the parsed view; `base64`: the exact bytes as `rawBody`." }),
    }),
  ),
  response: z.string().meta({ description: "NDJSON: one delivery per line, then the end line." }),
  responseMediaType: "application/x-ndjson",
  responseHeaders: {
    "Content-Disposition": 'Always `attachment; filename="deliveries-<time>.ndjson"`.',
  },
  errors: ["validation_error", "unauthorized"],
});

export const ingestDeliveryContract = defineContract({
  operationId: "ingestDelivery",
  method: "POST",
  path: "/webhooks/ingest/{hookId}",
  tag: "Webhooks",
  summary: "Receive a webhook (senders POST here)",
  description:
    "No authentication: the endpoint id is the secret. Any body up to 1 MiB (1,048,576 bytes) is stored: JSON is parsed, anything else kept as text, and the exact bytes always. Answers 200 only once the delivery is committed. A repeated sender message id (`webhook-id`, `svix-id`, `idempotency-key`, `x-github-delivery`, …) returns the first delivery's id. Other methods: 405.",
  servedBy: "launcher",
  auth: "none",
  params: z.object({ hookId: z.string().meta({ description: "The webhook endpoint id." }) }),
  rawRequestBody: "Any content type; JSON (`application/json`, `application/*+json`) is parsed.",
  response: z.object({ received: z.literal(true), deliveryId: z.string() }).meta({ id: "IngestAcknowledgement" }),
  errors: ["not_found", "method_not_allowed", "payload_too_large", "unauthorized", "service_unavailable"],
});

export const deliveryEventSchema = z.object({
  type: z.enum(["delivery.created", "delivery.acknowledged"]),
  endpointId: z.string(),
  deliveryId: z.string(),
});

export const streamDeliveryEventsContract = defineContract({
  operationId: "streamDeliveryEvents",
  scope: "inbox:read",
  method: "GET",
  path: "/v1/webhook-endpoints/deliveries/events",
  tag: "Webhooks",
  summary: "Live delivery events (server-sent events)",
  description:
    "A `text/event-stream` of `delivery.created` and `delivery.acknowledged` events for the workspace, as they happen on any instance. Each `data` line is JSON `{ endpointId, deliveryId }`; fetch the delivery itself through the API. Comments keep the connection alive every 15 s.",
  auth: "workspace",
  response: z.string().meta({ description: "An event stream." }),
  responseMediaType: "text/event-stream",
  errors: ["unauthorized", "rate_limited"],
});
