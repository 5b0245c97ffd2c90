import type { z } from "zod";

import type { Contract, ContractInput, ContractOutput } from "@/lib/contracts/contract";
import { serializeJson } from "@/lib/contracts/raw-json";
import { enforceApiRateLimit } from "@/lib/ratelimit/limits";
import { assertAccess, assertScope, authenticateRequest, type Principal } from "./authenticate";
import { readBodyWithLimit } from "./body";
import { ApiError, validationError } from "@/lib/errors";
import { errorResponse, fastApiErrorResponse } from "./error-response";
import { assertStorableText } from "./text-input";

/** Largest JSON body a `/v1` operation accepts. Ingest has its own, larger limit. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

interface HandlerContext<C extends Contract> extends ContractInput<C> {
  request: Request;
  /** The caller's workspace; present exactly when the contract requires authentication (with a key for `apiKey`). */
  auth: C["auth"] extends "apiKey"
    ? Principal & { apiKeyId: string }
    : C["auth"] extends "workspace"
      ? Principal
      : null;
}

type Handler<C extends Contract> = (context: HandlerContext<C>) => Promise<ContractOutput<C> | Response>;
type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: "path" | "query" | "header" | "body",
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where);
  assertStorableText(result.data, where);
  return result.data;
}

/** Reads a JSON body of at most `MAX_JSON_BODY_BYTES`. An empty body reads as `undefined`. */
async function readJsonBody(request: Request): Promise<unknown> {
  const text = (await readBodyWithLimit(request, MAX_JSON_BODY_BYTES)).toString("utf8");
  if (text.trim() === "") return undefined;
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new ApiError(
      "unsupported_media_type",
      "Send the request body as JSON with `Content-Type: application/json`.",
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("validation_error", "Request body is not valid JSON.", {
      details: [{ path: "", message: "Malformed JSON." }],
    });
  }
}

/**
 * Builds a Next.js route handler from a contract: authenticate, rate-limit per key, parse params/query/body with the
 * contract's schemas, call the handler, answer with the contract's success status. Every thrown error becomes the one
 * documented error body (see `errorResponse`). Handlers throw; they never build error responses themselves.
 */
export function route<C extends Contract>(contract: C, handler: Handler<C>) {
  return async function handle(request: Request, context: NextRouteContext): Promise<Response> {
    try {
      const auth =
        contract.auth === "none"
          ? null
          : await authenticateRequest(request, { allowSession: contract.auth === "workspace" });
      if (auth) await enforceApiRateLimit(auth);
      if (auth && contract.access) await assertAccess(contract.access, auth);
      if (auth && contract.scope) assertScope(contract.scope, auth);
      const params = contract.params ? parseWith(contract.params, await context.params, "path") : undefined;
      const query = contract.query
        ? parseWith(contract.query, Object.fromEntries(new URL(request.url).searchParams), "query")
        : undefined;
      const headers = contract.headers
        ? parseWith(contract.headers, Object.fromEntries(request.headers), "header")
        : undefined;
      const body = contract.body ? parseWith(contract.body, await readJsonBody(request), "body") : undefined;
      const result = await handler({ request, auth, params, query, headers, body } as HandlerContext<C>);
      if (result instanceof Response) return result;
      // Not Response.json: a `RawJson` inside (a delivery's payload) is written as the sender's text.
      return new Response(serializeJson(result), {
        status: contract.successStatus ?? 200,
        headers: { "content-type": "application/json" },
      });
    } catch (error) {
      return contract.errorFormat === "fastapi" ? fastApiErrorResponse(error) : errorResponse(error);
    }
  };
}
