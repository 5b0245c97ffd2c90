import { type z } from "zod";
import { ERROR_STATUS, type ErrorCode, type ErrorDetail } from "@/lib/contracts/errors";

/** The one error type of the service. Domain code throws it; `lib/api/error-response.ts` turns it into HTTP. */
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

const LOCATION_NAMES = {
  path: "path parameters",
  query: "query parameters",
  header: "headers",
  body: "request body",
} as const;

export function validationError(error: z.ZodError, location: NonNullable<ApiError["location"]>): ApiError {
  const details = toErrorDetails(error);
  const where = LOCATION_NAMES[location];
  const fields = [...new Set(details.map((detail) => detail.path || where))];
  return new ApiError("validation_error", `Invalid ${where}: ${fields.join(", ")}.`, { details, location });
}

// Prisma: can't reach server, timed out, server closed the connection, pool timeout.
const PRISMA_UNAVAILABLE = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const SOCKET_ERRORS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND"]);
// "Query read timeout": the server did not answer within query_timeout (lib/db/client.ts), e.g. it is frozen.
const NODE_POSTGRES_UNAVAILABLE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout)/;

/** True when the error says the database cannot be reached right now (as opposed to a bug): a retry may succeed. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth += 1) {
    const { code, kind, cause, meta } = current as {
      code?: unknown;
      kind?: unknown;
      cause?: unknown;
      meta?: { driverAdapterError?: unknown };
    };
    if (typeof code === "string") {
      // SQLSTATE class 08 is "connection exception"; 57P01-57P03 are shutdown / cannot connect now; 57014 is a
      // statement cancelled, which only statement_timeout does here (lib/db/client.ts): an overloaded database.
      if (
        PRISMA_UNAVAILABLE.has(code) ||
        SOCKET_ERRORS.has(code) ||
        code.startsWith("08") ||
        /^57(P0[1-3]|014)$/.test(code)
      )
        return true;
    }
    if (kind === "DatabaseNotReachable" || kind === "ConnectionClosed" || kind === "SocketTimeout") return true;
    // node-postgres (used directly by the ingest hot path) reports a lost connection or a full pool without a code.
    if (code === undefined && current instanceof Error && NODE_POSTGRES_UNAVAILABLE.test(current.message)) return true;
    current = meta?.driverAdapterError ?? cause;
  }
  return false;
}
