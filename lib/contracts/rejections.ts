import { z } from "zod";
import { defineContract, envelope } from "./contract";
import { cursor, endpointId, pageLimit } from "./webhooks";

/** Refused requests kept per endpoint, the latest: a ring, each new one written over the oldest. */
export const REJECTION_RING_SIZE = 100;
/** Body bytes a refused request keeps, of those read before it was refused. */
export const REJECTION_BODY_BYTES = 4_096;

export const REJECTION_REASONS = [
  "invalid_signature",
  "endpoint_disabled",
  "method_not_allowed",
  "body_too_slow",
  "payload_too_large",
  "rate_limited",
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export const rejectionSchema = z
  .object({
    id: z.string().meta({ description: "Refused request id (`rej_…`)." }),
    endpointId: z.string(),
    createdAt: z.iso.datetime().meta({ description: "When it was refused, ISO 8601 UTC with milliseconds." }),
    status: z.number().int().meta({ description: "The HTTP status the sender was answered with." }),
    reason: z.enum(REJECTION_REASONS).meta({
      description:
        "`invalid_signature` (401, the endpoint rejects invalid signatures), `endpoint_disabled` (404), `method_not_allowed` (405), `body_too_slow` (408, slower than the minimum rate), `payload_too_large` (413), `rate_limited` (429).",
    }),
    message: z.string().meta({ description: "The error message the sender was answered with." }),
    method: z.string(),
    query: z.string().meta({ description: "Query string of the request, without `?`." }),
    headers: z
      .record(z.string(), z.string())
      .meta({ description: "Request headers as a delivery keeps them: lower-cased names, values as received." }),
    sourceIp: z.string(),
    bodyPreview: z
      .string()
      .nullable()
      .meta({
        description: `The first ${REJECTION_BODY_BYTES} bytes of what was read of the body before the refusal, base64-encoded; null when none was read (a body is never read just to record it: 404, 405 and 429 come before it, a declared size over the limit is refused unread).`,
      }),
    bodyBytesRead: z.number().int().meta({ description: "How many bytes of the body were read before the refusal." }),
  })
  .meta({ id: "RejectedRequest" });

export const listRejectionsContract = defineContract({
  operationId: "listWebhookRejections",
  scope: "inbox:read",
  method: "GET",
  path: "/v1/webhook-endpoints/{id}/rejections",
  tag: "Webhooks",
  summary: "List an endpoint's refused ingest requests",
  description: `The ingest requests this endpoint refused, newest first, paged with \`cursor\`: the last ${REJECTION_RING_SIZE} recorded (each new one replaces the oldest). Under a flood of refusals only a few a second are recorded per server instance; the others are counted in \`notRecordedCount\` (within a second or so). Requests for ids that are no endpoint's are not recorded.`,
  auth: "workspace",
  params: z.object({ id: endpointId }),
  query: z.object({ limit: pageLimit, cursor }),
  response: envelope(
    z.object({
      rejections: z.array(rejectionSchema),
      nextCursor: z.string().nullable(),
      recordedCount: z
        .number()
        .int()
        .meta({
          description: `Refused requests recorded since the endpoint was made (the last ${REJECTION_RING_SIZE} are kept).`,
        }),
      notRecordedCount: z.number().int().meta({
        description: "Refused requests only counted, not recorded, because they came faster than sampling keeps.",
      }),
    }),
  ),
  errors: ["validation_error", "unauthorized", "not_found"],
});
