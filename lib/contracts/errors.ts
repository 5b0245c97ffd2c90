import { z } from "zod";

/** Every error code the API answers with, and its HTTP status (DESIGN §3). */
export const ERROR_STATUS = {
  validation_error: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  request_header_fields_too_large: 431,
  rate_limited: 429,
  unavailable_for_legal_reasons: 451,
  internal: 500,
  upstream_unavailable: 502,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const errorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

export const errorDetailSchema = z.object({
  path: z
    .string()
    .meta({ description: "Dotted path of the offending field, e.g. `limit` or `ids.3`; empty for the whole input." }),
  message: z.string(),
});

export const errorBodySchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: errorCodeSchema,
      message: z.string(),
      details: z.array(errorDetailSchema).optional(),
    }),
  })
  .meta({ id: "Error" });

export type ErrorBody = z.infer<typeof errorBodySchema>;
export type ErrorDetail = z.infer<typeof errorDetailSchema>;

/** The video endpoint's error bodies, in the FastAPI shape its clients know (DESIGN §3). */
export const fastApiValidationErrorSchema = z
  .object({
    detail: z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() })),
  })
  .meta({ id: "HTTPValidationError" });

export const fastApiErrorSchema = z.object({ detail: z.string() }).meta({ id: "HTTPError" });
