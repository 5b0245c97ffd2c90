import type { IncomingMessage, ServerResponse } from "node:http";
import { contracts } from "@/lib/contracts/index";
import { ApiError } from "@/lib/errors";
import { errorResponse, fastApiErrorResponse } from "./error-response";
import { decideRequestTarget, SERVER_METHODS } from "./request-target";

/*
 * What the launcher answers for API paths before Next.js sees the request, because Next.js answers these without
 * the API's error body: a path whose percent-encoding is not UTF-8 (Next.js fails rendering its error page: a plain
 * 500), a method the path's route file does not export (an empty 405; TRACE a plain 500), and dot segments, which
 * Next.js would resolve out of /v1 (a path traversal never reaches another route or an HTML page). The same holds for
 * next-auth's paths under /api/auth (GET and POST only; an undecodable segment or TRACE was a plain 500).
 */

interface RouteTemplate {
  /** `null` marks a `{param}` segment. */
  segments: (string | null)[];
  methods: string[];
  /** The operations at this path answer errors in FastAPI's shape (the video endpoint). */
  fastApi: boolean;
}

/** The API's paths as route templates, with the methods each one's route file exports (from the contracts). */
const TEMPLATES: RouteTemplate[] = (() => {
  const byPath = new Map<string, RouteTemplate>();
  for (const contract of contracts) {
    if (contract.servedBy === "launcher") continue;
    const template = byPath.get(contract.path) ?? {
      segments: contract.path
        .split("/")
        .slice(1)
        .map((segment) => (segment.startsWith("{") ? null : segment)),
      methods: [],
      fastApi: false,
    };
    template.methods.push(contract.method);
    template.fastApi ||= contract.errorFormat === "fastapi";
    byPath.set(contract.path, template);
  }
  return [...byPath.values()];
})();

// Methods the catch-all route (app/v1/[...path]) answers with a JSON 404; HEAD and OPTIONS Next.js answers itself
// (HEAD as the GET of the catch-all route, OPTIONS with 204).
const ROUTED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const FRAMEWORK_METHODS = ["HEAD", "OPTIONS"];
// next-auth's catch-all route (app/api/auth/[...nextauth]) exports these.
const NEXT_AUTH_METHODS = ["GET", "POST"];

function matches(template: RouteTemplate, segments: string[]): boolean {
  return (
    template.segments.length === segments.length &&
    template.segments.every((part, index) => (part === null ? segments[index] !== "" : part === segments[index]))
  );
}

/** Next.js prefers a static segment to a dynamic one, from the left: the template that would serve the path. */
function mostSpecific(candidates: RouteTemplate[]): RouteTemplate {
  return candidates.reduce((best, candidate) => {
    const index = best.segments.findIndex((part, at) => (part === null) !== (candidate.segments[at] === null));
    return index !== -1 && best.segments[index] === null ? candidate : best;
  });
}

/** The error to answer `method` `url` with before routing, or null to let Next.js route it. */
export function preflightApiError(method: string, url: string): ApiError | null {
  return preflight(method, url)?.error ?? null;
}

function preflight(method: string, url: string): { error: ApiError; fastApi?: boolean } | null {
  const path = url.split(/[?#]/, 1)[0] ?? "";
  const rawSegments = path.split("/").slice(1);
  const segments: string[] = [];
  for (const segment of rawSegments) {
    try {
      segments.push(decodeURIComponent(segment));
    } catch {
      segments.push("\uFFFF"); // undecodable; refused below if the path is an API path
    }
  }
  const candidates = TEMPLATES.filter((template) => matches(template, segments));
  const isNextAuthPath = segments[0] === "api";
  const isApiPath = segments[0] === "v1" || isNextAuthPath || candidates.length > 0;
  if (!isApiPath) return null;

  if (rawSegments.some((segment) => !isDecodable(segment))) {
    return {
      error: new ApiError("validation_error", "The request path is not valid percent-encoded UTF-8.", {
        details: [{ path: "", message: "Malformed percent-encoding." }],
        location: "path",
      }),
    };
  }
  if (segments.some((segment) => segment === "." || segment === "..")) {
    return {
      error: new ApiError(
        "not_found",
        `No API route at ${method} ${path}: dot segments are not resolved. See /v1/openapi.json.`,
      ),
    };
  }
  if (isNextAuthPath) {
    if (NEXT_AUTH_METHODS.includes(method) || FRAMEWORK_METHODS.includes(method)) return null;
    const allowed = NEXT_AUTH_METHODS.join(", ");
    const message = `${method} is not allowed on ${path}. Allowed: ${allowed}.`;
    return { error: new ApiError("method_not_allowed", message, { headers: { allow: allowed } }) };
  }
  if (candidates.length === 0) {
    if (FRAMEWORK_METHODS.includes(method)) return null;
    return ROUTED_METHODS.includes(method)
      ? null
      : { error: new ApiError("not_found", `No API route at ${method} ${path}. See /v1/openapi.json.`) };
  }
  const { methods, fastApi } = mostSpecific(candidates);
  // Next.js answers OPTIONS (204 with Allow) and HEAD of a GET route itself; HEAD elsewhere it refuses with a bare 405.
  if (methods.includes(method) || method === "OPTIONS" || (method === "HEAD" && methods.includes("GET"))) return null;
  const error = new ApiError(
    "method_not_allowed",
    `${method} is not allowed on ${path}. Allowed: ${methods.join(", ")}.`,
    { headers: { allow: methods.join(", ") } },
  );
  return { error, fastApi };
}

function isDecodable(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * Answers the request with the API's error body when `preflightApiError` refuses it; true when it did (the caller
 * must not pass the request on). The body of a refused request is read and dropped.
 */
export function answerApiPreflight(request: IncomingMessage, response: ServerResponse): boolean {
  const refused = preflight(request.method ?? "GET", request.url ?? "/");
  if (!refused) return false;
  const answer = refused.fastApi ? fastApiErrorResponse(refused.error) : errorResponse(refused.error);
  void send(request, response, answer).catch(() => response.destroy());
  return true;
}

/**
 * Settles a request target that is not a path (lib/api/request-target.ts): an absolute URL is routed as the path it
 * names (`request.url` rewritten), `*` is answered here. True when the request was answered (do not pass it on).
 */
export function answerRequestTarget(request: IncomingMessage, response: ServerResponse): boolean {
  const decision = decideRequestTarget(request.method ?? "GET", request.url ?? "/");
  if (decision.kind === "path") {
    request.url = decision.path;
    return false;
  }
  const answer =
    decision.kind === "server-options"
      ? new Response(null, { status: 204, headers: { allow: SERVER_METHODS } })
      : errorResponse(decision.error);
  void send(request, response, answer).catch(() => response.destroy());
  return true;
}

async function send(request: IncomingMessage, response: ServerResponse, answer: Response): Promise<void> {
  const body = Buffer.from(await answer.arrayBuffer());
  const headers: Record<string, string> = { "content-length": String(body.length) };
  answer.headers.forEach((value, name) => (headers[name] = value));
  request.resume();
  response.writeHead(answer.status, headers);
  response.end(body);
}
