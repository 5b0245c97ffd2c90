import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { escapePointer, matchOperation, type OpenApiDocument } from "./match-operation";

/** One answer the app gave, as a test saw it. */
export interface Exchange {
  method: string;
  /** Path and query as requested, e.g. `/v1/webhook-endpoints?limit=5`. */
  target: string;
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The body, or null when it was not read (an event stream never ends). */
  body: Buffer | null;
}

/**
 * Paths under this prefix that the document does not list are still the API's: they answer as the document's
 * `x-unlisted-api-paths` says. Other unlisted paths (dashboard pages, sign-in) are no part of the API.
 */
const API_PREFIX = "/v1/";
const DOCUMENT_KEY = "signalbox-openapi";

type ResponseObject = { $ref?: string; content?: Record<string, unknown>; headers?: Record<string, HeaderObject> };
type HeaderObject = { $ref?: string; required?: boolean };

/** Node's HTTP parser refuses a request that is not valid HTTP (before any app code runs) with exactly this. */
function isProtocolRefusal(exchange: Exchange): boolean {
  return (
    exchange.status === 400 &&
    exchange.body?.length === 0 &&
    Object.keys(exchange.headers).join() === "connection" &&
    exchange.headers.connection === "close"
  );
}

function mediaMatches(declared: string, actual: string): boolean {
  if (declared === "*/*" || declared === actual) return true;
  return declared.endsWith("/*") && actual.startsWith(declared.slice(0, -1));
}

const isJsonMedia = (media: string) => /^application\/(.+\+)?json$/.test(media);

/**
 * Checks answers against an OpenAPI 3.1 document: the status is declared for the operation (else 405 for a method the
 * path does not declare), required headers are present, the media type is declared, and a JSON body matches the
 * declared schema (Ajv, draft 2020-12). Returns the violations, empty when the answer conforms.
 */
export function createResponseChecker(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat("binary", true); // OpenAPI's marker for raw bytes; never a JSON value
  ajv.addSchema(document as object, DOCUMENT_KEY);
  const validators = new Map<string, ValidateFunction>();

  const at = (pointer: string): unknown =>
    pointer
      .split("/")
      .slice(1)
      .reduce<unknown>(
        (node, token) => (node as Record<string, unknown> | undefined)?.[token.replace(/~1/g, "/").replace(/~0/g, "~")],
        document,
      );
  /** Follows a `$ref` inside the document: the object and its pointer. */
  const resolve = <T extends { $ref?: string }>(node: T, pointer: string): { node: T; pointer: string } =>
    node.$ref ? resolve(at(node.$ref.slice(1)) as T, node.$ref.slice(1)) : { node, pointer };

  function validatorFor(pointer: string): ValidateFunction {
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_KEY}#${pointer}` });
      validators.set(pointer, validate);
    }
    return validate;
  }

  /**
   * The operation (its pointer) whose responses apply. `framework`: the method is one HTTP itself defines for every
   * path (HEAD as GET without a body; OPTIONS 204 with `Allow`). `expected`: the path does not declare the method,
   * so it answers 405, or 400 first when the path is not percent-encoded UTF-8 (preflight.ts).
   */
  function operationFor(exchange: Exchange, pathname: string): { pointer: string; expected?: number } | null {
    const method = exchange.method.toLowerCase();
    const match = matchOperation(document, method, pathname);
    if (!match) return pathname.startsWith(API_PREFIX) ? { pointer: "/x-unlisted-api-paths" } : null;
    if (match.method) return { pointer: `${match.pathItemPointer}/${match.method}` };
    if (method === "head" && "get" in match.pathItem) return { pointer: `${match.pathItemPointer}/get` };
    // Every operation of a path declares the 405 that the path's other methods answer.
    const any = Object.keys(match.pathItem).find((key) => key !== "parameters" && !key.startsWith("x-"));
    // Only /v1 paths go through preflight.ts; the launcher's ingest path answers 405 whatever its encoding.
    const badPath = match.malformed && pathname.startsWith(API_PREFIX);
    return { pointer: `${match.pathItemPointer}/${any}`, expected: badPath ? 400 : 405 };
  }

  return function check(exchange: Exchange): string[] {
    const pathname = exchange.target.split(/[?#]/, 1)[0] ?? "";
    // The query never selects a response: leaving it out lets one drift read as one line, however many queries hit it.
    const query = exchange.target.length > pathname.length ? "?…" : "";
    const label = `${exchange.method} ${pathname.slice(0, 160)}${query} → ${exchange.status}`;
    if (isProtocolRefusal(exchange)) return [];
    const operation = operationFor(exchange, pathname);
    if (!operation) return [];
    if (!at(operation.pointer)) return [`${label}: the document declares no such operation (${operation.pointer})`];
    if (exchange.method === "OPTIONS" && exchange.status === 204)
      return exchange.headers.allow ? [] : [`${label}: an OPTIONS answer without Allow`];
    // 400, 408 and 431 can come from the HTTP server itself, before any routing (a target that is not a path, a request
    // that is too slow or too large); they are declared on every operation.
    if (operation.expected && ![operation.expected, 400, 408, 431].includes(exchange.status))
      return [`${label}: the path does not declare ${exchange.method}, so it must answer ${operation.expected}`];

    const responses = (at(`${operation.pointer}/responses`) ?? {}) as Record<string, ResponseObject>;
    const key = [String(exchange.status), `${String(exchange.status)[0]}XX`, "default"].find(
      (name) => name in responses,
    );
    if (!key) return [`${label}: status not declared (declared: ${Object.keys(responses).join(", ")})`];
    const { node: response, pointer } = resolve(responses[key]!, `${operation.pointer}/responses/${key}`);

    const violations: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const { node } = resolve(header, "");
      if (node.required && exchange.headers[name.toLowerCase()] === undefined)
        violations.push(`${label}: required header ${name} missing`);
    }
    const isHead = exchange.method === "HEAD";
    if (!response.content) {
      if (!isHead && exchange.body && exchange.body.length > 0)
        violations.push(`${label}: a body was sent where the document declares none`);
      return violations;
    }
    const media = (exchange.headers["content-type"] ?? "").split(";", 1)[0]!.trim().toLowerCase();
    const declared = Object.keys(response.content).find((candidate) => mediaMatches(candidate, media));
    if (declared === undefined) {
      violations.push(`${label}: Content-Type ${media || "(none)"} not declared (${Object.keys(response.content)})`);
      return violations;
    }
    // Only a declared JSON media type has a JSON schema; `*/*` bytes are whatever the sender stored.
    if (isHead || !exchange.body || !isJsonMedia(declared)) return violations;
    const schemaPointer = `${pointer}/content/${escapePointer(declared)}/schema`;
    if (!at(schemaPointer)) return violations;
    let json: unknown;
    try {
      json = JSON.parse(exchange.body.toString("utf8"));
    } catch {
      return [...violations, `${label}: the body is not JSON`];
    }
    const validate = validatorFor(schemaPointer);
    if (!validate(json)) {
      const errors = (validate.errors ?? []).map(
        (error) => `${error.instancePath || "/"} ${error.message} ${JSON.stringify(error.params)}`,
      );
      violations.push(`${label}: body does not match ${schemaPointer}: ${errors.slice(0, 5).join("; ")}`);
    }
    return violations;
  };
}
