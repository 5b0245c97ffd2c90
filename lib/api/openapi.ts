import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { API_TAGS, type Contract } from "@/lib/contracts/contract";
import {
  ERROR_STATUS,
  errorBodySchema,
  fastApiErrorSchema,
  fastApiValidationErrorSchema,
  type ErrorCode,
} from "@/lib/contracts/errors";
import { ingestDeliveryContract } from "@/lib/contracts/webhooks";

type JsonSchema = Record<string, unknown>;

const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  validation_error: "The request is invalid; `error.details` names each bad field.",
  unauthorized: "Missing, malformed, unknown or revoked API key.",
  payment_required: "The workspace balance cannot cover the call.",
  forbidden: "The key may not perform this operation.",
  not_found: "No such resource in this workspace.",
  method_not_allowed: "The path does not accept this method.",
  request_timeout: "The request's headers or body did not arrive in time.",
  payload_too_large: "The request body is over the limit.",
  unsupported_media_type: "The request body is not JSON.",
  request_header_fields_too_large: "The request's URL and headers are over 16 KiB.",
  rate_limited: "Too many requests; retry after `Retry-After` seconds.",
  unavailable_for_legal_reasons: "Not available in the service's region.",
  internal: "Unexpected server error.",
  upstream_unavailable: "An upstream source failed or timed out.",
  service_unavailable: "The service cannot reach its database; retry shortly.",
};

/** Collects named schemas (`.meta({ id })`) from every conversion into `components.schemas`. */
class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: "input" | "output"): JsonSchema {
    const {
      $schema: _dialect,
      $defs,
      ...json
    } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema & {
      $defs?: Record<string, JsonSchema>;
    };
    const renames = new Map<string, string>();
    for (const [id, definition] of Object.entries($defs ?? {})) {
      const existing = this.components[id];
      // Request and response forms of one schema can differ (defaults, transforms): keep both, apart.
      const name = existing && !isDeepStrictEqual(existing, definition) ? `${id}Input` : id;
      renames.set(id, name);
      this.components[name] = definition;
    }
    const rewritten = JSON.stringify(json).replace(
      /"#\/\$defs\/([^"]+)"/g,
      (_match, id: string) => `"#/components/schemas/${renames.get(id) ?? id}"`,
    );
    for (const name of renames.values()) {
      this.components[name] = JSON.parse(
        JSON.stringify(this.components[name]).replace(
          /"#\/\$defs\/([^"]+)"/g,
          (_m, id: string) => `"#/components/schemas/${renames.get(id) ?? id}"`,
        ),
      ) as JsonSchema;
    }
    return JSON.parse(rewritten) as JsonSchema;
  }
}

function parametersOf(
  collector: SchemaCollector,
  schema: z.ZodObject<z.ZodRawShape> | undefined,
  location: "path" | "query" | "header",
) {
  if (!schema) return [];
  const json = collector.convert(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property as { description?: string };
    return {
      name,
      in: location,
      required: location === "path" || (json.required ?? []).includes(name),
      description,
      schema: rest,
    };
  });
}

function operationOf(collector: SchemaCollector, contract: Contract) {
  const responses: Record<string, unknown> = {
    [String(contract.successStatus ?? 200)]: {
      description: "Success.",
      content: {
        [contract.responseMediaType ?? "application/json"]: { schema: collector.convert(contract.response, "output") },
      },
    },
  };
  // Every authenticated operation, and ingest, is rate-limited (lib/ratelimit): 429 with Retry-After.
  const rateLimited = contract.auth !== "none" || contract.operationId === ingestDeliveryContract.operationId;
  const errors: ErrorCode[] = [
    ...new Set<ErrorCode>([...contract.errors, ...(rateLimited ? (["rate_limited"] as const) : []), "internal"]),
  ];
  const fastApi = contract.errorFormat === "fastapi";
  const statusOf = (code: ErrorCode) => (fastApi && code === "validation_error" ? 422 : ERROR_STATUS[code]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errors) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const schema = !fastApi ? "Error" : status === 422 ? "HTTPValidationError" : "HTTPError";
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${ERROR_DESCRIPTIONS[code]}`).join(" "),
      content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } },
    };
  }
  return {
    operationId: contract.operationId,
    tags: [contract.tag],
    summary: contract.summary,
    ...(contract.description ? { description: contract.description } : {}),
    // Either declaration describes the same header; clients may pick the one their tooling understands.
    security: contract.auth === "none" ? [] : [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    parameters: [
      ...parametersOf(collector, contract.params, "path"),
      ...parametersOf(collector, contract.query, "query"),
      ...parametersOf(collector, contract.headers, "header"),
    ],
    ...(contract.body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: collector.convert(contract.body, "input") } },
          },
        }
      : {}),
    ...(contract.rawRequestBody
      ? {
          requestBody: {
            description: contract.rawRequestBody,
            content: { "*/*": { schema: { type: "string", format: "binary" } } },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of the whole API, generated from the contracts (never written by hand). */
export function buildOpenApiDocument(contracts: readonly Contract[]) {
  const collector = new SchemaCollector();
  collector.convert(errorBodySchema, "output"); // registers components.schemas.Error
  collector.convert(fastApiValidationErrorSchema, "output");
  collector.convert(fastApiErrorSchema, "output");
  const paths: Record<string, Record<string, unknown>> = {};
  for (const contract of contracts) {
    paths[contract.path] = {
      ...paths[contract.path],
      [contract.method.toLowerCase()]: operationOf(collector, contract),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Signalbox API",
      version: "1.0.0",
      description:
        "Webhook inbox, data enrichment and video details behind one API key scheme. " +
        "Authenticate with `Authorization: Bearer <API key>`.",
    },
    servers: [{ url: "/" }],
    tags: API_TAGS.map((tag) => ({ ...tag })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API key: `sbx_live_…` or `sbx_test_…`." },
        // Spec §5 declares the key as an API key in the `Authorization` header, sent as `Bearer <key>`.
        apiKeyHeader: { type: "apiKey", in: "header", name: "Authorization", description: "`Bearer <API key>`." },
      },
      schemas: collector.components,
    },
  };
}
