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
  validation_error:
    "The request is invalid (or its path is not percent-encoded UTF-8); `error.details` names each bad field.",
  unauthorized: "Missing, malformed, unknown or revoked API key.",
  payment_required: "The workspace balance cannot cover the call.",
  forbidden: "The key may not perform this operation.",
  not_found: "No such resource in this workspace (for a dashboard session: no such workspace of the user's).",
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

/** Query text that reads exactly `true` or `false` (`booleanText` in the webhook contracts) is a boolean to a client. */
function asClientType(schema: JsonSchema, location: "path" | "query" | "header"): JsonSchema {
  const { type: _text, enum: values, ...rest } = schema;
  const isBooleanText =
    Array.isArray(values) && values.length === 2 && ["true", "false"].every((v) => values.includes(v));
  return location === "query" && isBooleanText ? { ...rest, type: "boolean" } : schema;
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
      schema: asClientType(rest, location),
    };
  });
}

/**
 * Every error code the operation can answer: its own, and those the layers around its handler add (the route wrapper
 * in route.ts, the launcher's preflight.ts and ingest-http.ts), so that none is left undeclared.
 */
function errorCodesOf(contract: Contract): ErrorCode[] {
  const codes = new Set<ErrorCode>(contract.errors);
  // The route wrapper parses input (and preflight.ts refuses a path that is not percent-encoded UTF-8): 400.
  const parsesInput = contract.params || contract.query || contract.headers || contract.body;
  if (parsesInput && contract.servedBy !== "launcher") codes.add("validation_error");
  if (contract.body) codes.add("unsupported_media_type").add("payload_too_large");
  if (contract.auth !== "none") {
    // Authentication reads the database; every key or session is rate-limited (lib/ratelimit).
    codes.add("unauthorized").add("rate_limited").add("service_unavailable");
  }
  // A dashboard session naming a workspace the user is not in (`x-signalbox-workspace`).
  if (contract.auth === "workspace") codes.add("not_found");
  // A key without the operation's scope, or a caller without the role it needs (lib/api/authenticate.ts).
  if (contract.scope || contract.access) codes.add("forbidden");
  if (contract.operationId === ingestDeliveryContract.operationId) codes.add("rate_limited");
  // Another method on the path, answered before the handler (preflight.ts, ingest-http.ts).
  codes.add("method_not_allowed").add("internal");
  return [...codes];
}

const HEADERS_OF_ERROR: Partial<Record<ErrorCode, Record<string, unknown>>> = {
  method_not_allowed: {
    Allow: { description: "The methods the path accepts.", required: true, schema: { type: "string" } },
  },
  rate_limited: {
    "Retry-After": { description: "Seconds until the next window.", required: true, schema: { type: "integer" } },
  },
};

const errorContent = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };

/**
 * What the launcher's HTTP server answers itself, on every path, before any of the API's code runs (server.ts,
 * lib/api/client-error.ts, lib/api/request-target.ts): always the standard error body, also on the video endpoint.
 */
const HTTP_SERVER_REFUSALS = {
  "400": {
    description:
      "`validation_error`: the request is not well-formed HTTP, or its target is not a path (refused by the HTTP server).",
    content: errorContent,
  },
  "408": {
    description:
      "`request_timeout`: the request did not arrive in time (`HTTP_HEADERS_TIMEOUT_MS`, `HTTP_REQUEST_TIMEOUT_MS`, or a webhook body below `INGEST_MIN_BYTES_PER_SECOND`): refused by the HTTP server.",
    content: errorContent,
  },
  "431": {
    description:
      "`request_header_fields_too_large`: the URL and headers are over Node's 16 KiB limit: refused by the HTTP server.",
    content: errorContent,
  },
};

function errorResponses(contract: Contract): Record<string, unknown> {
  const fastApi = contract.errorFormat === "fastapi";
  const statusOf = (code: ErrorCode) => (fastApi && code === "validation_error" ? 422 : ERROR_STATUS[code]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(contract))
    byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  const responses: Record<string, unknown> = { ...HTTP_SERVER_REFUSALS };
  for (const [status, codes] of byStatus) {
    const schema = !fastApi ? "Error" : status === 422 ? "HTTPValidationError" : "HTTPError";
    const headers = Object.assign({}, ...codes.map((code) => HEADERS_OF_ERROR[code] ?? {})) as Record<string, unknown>;
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${ERROR_DESCRIPTIONS[code]}`).join(" "),
      ...(Object.keys(headers).length ? { headers } : {}),
      content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } },
    };
  }
  return responses;
}

function requestBodyOf(collector: SchemaCollector, contract: Contract) {
  if (contract.body)
    return {
      // A body schema that takes no body at all (`.optional()`) makes the body optional.
      required: !contract.body.safeParse(undefined).success,
      content: { "application/json": { schema: collector.convert(contract.body, "input") } },
    };
  if (!contract.rawRequestBody) return undefined;
  // JSON first, so that a generated client sends a JSON value as JSON (once); any other body as bytes.
  return {
    description: contract.rawRequestBody,
    content: {
      "application/json": { schema: { description: "Any JSON value." } },
      "*/*": { schema: { type: "string", format: "binary" } },
    },
  };
}

function operationOf(collector: SchemaCollector, contract: Contract) {
  const success = {
    description: "Success.",
    ...(contract.responseHeaders
      ? {
          headers: Object.fromEntries(
            Object.entries(contract.responseHeaders).map(([name, description]) => [
              name,
              { description, required: true, schema: { type: "string" } },
            ]),
          ),
        }
      : {}),
    content: {
      [contract.responseMediaType ?? "application/json"]: { schema: collector.convert(contract.response, "output") },
    },
  };
  const responses = { [String(contract.successStatus ?? 200)]: success, ...errorResponses(contract) };
  const requestBody = requestBodyOf(collector, contract);
  return {
    operationId: contract.operationId,
    tags: [contract.tag],
    summary: contract.summary,
    description:
      (contract.description ?? contract.summary) +
      (contract.scope ? ` An API key needs the \`${contract.scope}\` scope.` : ""),
    ...(contract.scope ? { "x-api-key-scope": contract.scope } : {}),
    // Either declaration describes the same header; clients may pick the one their tooling understands.
    security: contract.auth === "none" ? [] : [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    parameters: [
      ...parametersOf(collector, contract.params, "path"),
      ...parametersOf(collector, contract.query, "query"),
      ...parametersOf(collector, contract.headers, "header"),
    ],
    ...(requestBody ? { requestBody } : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/**
 * What a path under `/v1` that `paths` does not list answers, whatever the method (the catch-all route and
 * preflight.ts). An OpenAPI extension, since no path template can name "every other path".
 */
const UNLISTED_API_PATHS = {
  description:
    "Any other path under `/v1`, with any method, answers one of these; so does a path with a `.` or `..` segment, which is never resolved.",
  responses: {
    "308": {
      description: "The path ends with `/` (or has `//`): redirects to it without; the body is the new path as text.",
      headers: {
        Location: {
          description: "The same path without the trailing slash.",
          required: true,
          schema: { type: "string" },
        },
      },
      content: { "*/*": { schema: { type: "string" } } },
    },
    ...HTTP_SERVER_REFUSALS,
    "400": {
      description: `\`validation_error\`: the path is not percent-encoded UTF-8, the request is not well-formed HTTP, or its target is not a path.`,
      content: errorContent,
    },
    "404": { description: "`not_found`: no API route at this path.", content: errorContent },
  },
};

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
        "Authenticate with `Authorization: Bearer <API key>`. " +
        "`HEAD` is answered as `GET` without a body, and `OPTIONS` with 204 and `Allow`. " +
        "Other paths under `/v1` answer as `x-unlisted-api-paths` says.",
      // The service is self-hosted: its operator is the contact, and the source's terms are the licence.
      contact: { name: "The operator of this Signalbox instance" },
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: "/", description: "This Signalbox instance." }],
    tags: API_TAGS.map((tag) => ({ ...tag })),
    paths,
    "x-unlisted-api-paths": UNLISTED_API_PATHS,
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
