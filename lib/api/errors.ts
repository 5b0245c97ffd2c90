import { type z } from "zod";
import { ERROR_STATUS, type ErrorBody, type ErrorCode, type ErrorDetail } from "@/lib/contracts/errors";

/** The one error type of the API. Domain code throws it; `errorResponse` turns it into HTTP. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
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

export function validationError(error: z.ZodError, where: string): ApiError {
  const details = toErrorDetails(error);
  const fields = [...new Set(details.map((detail) => detail.path || where))];
  return new ApiError("validation_error", `Invalid ${where}: ${fields.join(", ")}.`, { details });
}

// Prisma: can't reach server, timed out, server closed the connection, pool timeout.
const PRISMA_UNAVAILABLE = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const SOCKET_ERRORS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND"]);

/** True when the error says the database cannot be reached right now (as opposed to a bug): a retry may succeed. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth += 1) {
    const { code, kind, cause, meta } = current as { code?: unknown; kind?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    if (typeof code === "string") {
      // SQLSTATE class 08 is "connection exception"; 57P01-57P03 are shutdown / cannot connect now.
      if (PRISMA_UNAVAILABLE.has(code) || SOCKET_ERRORS.has(code) || code.startsWith("08") || /^57P0[1-3]$/.test(code)) return true;
    }
    if (kind === "DatabaseNotReachable" || kind === "ConnectionClosed" || kind === "SocketTimeout") return true;
    current = meta?.driverAdapterError ?? cause;
  }
  return false;
}

/** Maps anything thrown by a handler to the documented error body. Unknown errors are logged, never echoed. */
export function errorResponse(error: unknown): Response {
  let apiError: ApiError;
  if (error instanceof ApiError) {
    apiError = error;
  } else if (isDatabaseUnavailable(error)) {
    console.error("Database unavailable:", (error as { code?: string }).code ?? "unknown");
    apiError = new ApiError("service_unavailable", "The service is temporarily unavailable. Retry shortly.", { headers: { "Retry-After": "1" } });
  } else {
    console.error("Unhandled error:", error);
    apiError = new ApiError("internal", "Internal server error.");
  }
  const body: ErrorBody = {
    success: false,
    error: { code: apiError.code, message: apiError.message, ...(apiError.details ? { details: apiError.details } : {}) },
  };
  return Response.json(body, { status: apiError.status, headers: apiError.headers });
}
