import type { ClientInput, Contract, ContractOutput } from "@/lib/contracts/contract";
import { errorBodySchema, type ErrorCode, type ErrorDetail } from "@/lib/contracts/errors";

/** A non-2xx answer from the API, with the documented error code and field details. */
export class ApiClientError extends Error {
  readonly status: number;
  readonly code: ErrorCode | "unknown";
  readonly details: ErrorDetail[];

  constructor(status: number, code: ErrorCode | "unknown", message: string, details: ErrorDetail[] = []) {
    super(message);
    this.name = "ApiClientError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** The `ApiClientError` a non-2xx answer stands for: its documented error body, else its status alone. */
export async function errorFromResponse(response: Response, request: string): Promise<ApiClientError> {
  const payload: unknown = await response.json().catch(() => undefined);
  const parsed = errorBodySchema.safeParse(payload);
  if (parsed.success)
    return new ApiClientError(
      response.status,
      parsed.data.error.code,
      parsed.data.error.message,
      parsed.data.error.details,
    );
  return new ApiClientError(response.status, "unknown", `${request} answered ${response.status}`);
}

export interface ApiClientOptions {
  /** Origin of the API, e.g. `http://localhost:3000`; empty for same-origin calls from the dashboard. */
  baseUrl?: string;
  apiKey?: string;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

function buildPath(template: string, params: Record<string, unknown> | undefined): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${template}`);
    return encodeURIComponent(String(value));
  });
}

function buildQuery(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

/**
 * A typed fetch client built from the same contracts as the route handlers: `call(contract, input)` checks the
 * input's type at compile time, validates the response with the contract's schema, and throws `ApiClientError`
 * on any error status. `open` is the same request for an answer read as a stream (an NDJSON export): the response,
 * unread, once its status is a success.
 */
export function createApiClient(options: ApiClientOptions = {}) {
  const fetchImpl = options.fetch ?? fetch;
  const client = {
    async call<C extends Contract>(contract: C, input: ClientInput<C>): Promise<ContractOutput<C>> {
      const response = await client.open(contract, input);
      return contract.response.parse(await response.json().catch(() => undefined)) as ContractOutput<C>;
    },

    async open<C extends Contract>(contract: C, input: ClientInput<C>): Promise<Response> {
      const {
        params,
        query,
        body,
        headers: extraHeaders,
      } = input as {
        params?: Record<string, unknown>;
        query?: Record<string, unknown>;
        headers?: Record<string, unknown>;
        body?: unknown;
      };
      const url = `${options.baseUrl ?? ""}${buildPath(contract.path, params)}${buildQuery(query)}`;
      const headers: Record<string, string> = { accept: "application/json", ...options.headers };
      for (const [name, value] of Object.entries(extraHeaders ?? {}))
        if (value !== undefined) headers[name] = String(value);
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      if (body !== undefined) headers["content-type"] = "application/json";
      const response = await fetchImpl(url, {
        method: contract.method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw await errorFromResponse(response, `${contract.method} ${contract.path}`);
      return response;
    },
  };
  return client;
}

export type ApiClient = ReturnType<typeof createApiClient>;
