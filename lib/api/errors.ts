import { type z } from "zod";
import { ERROR_STATUS, type ErrorBody, type ErrorCode, type ErrorDetail } from "@/lib/contracts/errors";

/** The one error type of the API. Domain code throws it; `errorResponse` turns it into HTTP. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;
  /** Where the invalid input was (for validation errors), as FastAPI-style bodies name it. */
  readonly location?: "query" | "path" | "header" | "body";

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string>; location?: ApiError["location"] } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
    this.location = options.location;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** Zod issues as `{ path, message }` details; unknown keys become one detail per key. */
export function toErrorDetails(error: z.ZodError, prefix: (string | number)[] = []): ErrorDetail[] {
  return error.issues.flatMap((issue) => {
    const base = [...prefix, ...issue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment))];
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ path: [...base, key].join("."), message: "Unknown field." }));
    }
    return [{ path: base.join("."), message: issue.message }];
  });
}

const LOCATION_NAMES = { path: "path parameters", query: "query parameters", header: "headers", body: "request body" } as const;

export function validationError(error: z.ZodError, location: NonNullable<ApiError["location"]>): ApiError {
  const details = toErrorDetails(error);
  const where = LOCATION_NAMES[location];
  const fields = [...new Set(details.map((detail) => detail.path || where))];
  return new ApiError("validation_error", `Invalid ${where}: ${fields.join(", ")}.`, { details, location });
}

// Prisma: can't reach server, timed out, server closed the connection, pool timeout.
const PRISMA_UNAVAILABLE = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const SOCKET_ERRORS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND"]);
const NODE_POSTGRES_UNAVAILABLE = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** True when the error says the database cannot be reached right now (as opposed to a bug): a retry may succeed. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth += 1) {
    const { code, kind, cause, meta } = current as { code?: unknown; kind?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    if (typeof code === "string") {
      // SQLSTATE class 08 is "connection exception"; 57P01-57P03 are shutdown / cannot connect now.
      if (PRISMA_UNAVAILABLE.has(code) || SOCKET_ERRORS.has(code) || code.startsWith("08") || /^57P0[1-3]$/.test(code)) return true;
    }
    if (kind === "DatabaseNotReachable" || kind === "ConnectionClosed" || kind === "SocketTimeout") return true;
    // node-postgres (used directly by the ingest hot path) reports a lost connection or a full pool without a code.
    if (code === undefined && current instanceof Error && NODE_POSTGRES_UNAVAILABLE.test(current.message)) return true;
    current = meta?.driverAdapterError ?? cause;
  }
  return false;
}

/** Anything thrown, as the ApiError to answer with. Unknown errors are logged, never echoed. */
function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) {
    console.error("Database unavailable:", (error as { code?: string }).code ?? "unknown");
    return new ApiError("service_unavailable", "The service is temporarily unavailable. Retry shortly.", { headers: { "Retry-After": "1" } });
  }
  console.error("Unhandled error:", error);
  return new ApiError("internal", "Internal server error.");
}

/** Maps anything thrown by a handler to the documented error body. */
export function errorResponse(error: unknown): Response {
  const apiError = toApiError(error);
  const body: ErrorBody = {
    success: false,
    error: { code: apiError.code, message: apiError.message, ...(apiError.details ? { details: apiError.details } : {}) },
  };
  return Response.json(body, { status: apiError.status, headers: apiError.headers });
}

/**
 * The same errors in the FastAPI shape the video endpoint keeps (DESIGN §3): validation → 422
 * `{ detail: [{ loc, msg, type }] }`, anything else → `{ detail: "<message>" }` with its usual status.
 */
export function fastApiErrorResponse(error: unknown): Response {
  const apiError = toApiError(error);
  if (apiError.code === "validation_error") {
    const detail = (apiError.details ?? [{ path: "", message: apiError.message }]).map((item) => ({
      loc: [apiError.location ?? "query", ...item.path.split(".").filter(Boolean)],
      msg: item.message,
      type: item.message === "Field required" ? "missing" : "value_error",
    }));
    return Response.json({ detail }, { status: 422, headers: apiError.headers });
  }
  return Response.json({ detail: apiError.message }, { status: apiError.status, headers: apiError.headers });
}
