import { type ErrorBody } from "@/lib/contracts/errors";
import { ApiError, isDatabaseUnavailable } from "@/lib/errors";

/** Anything thrown, as the ApiError to answer with. Unknown errors are logged, never echoed. */
function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) {
    console.error("Database unavailable:", (error as { code?: string }).code ?? "unknown");
    return new ApiError("service_unavailable", "The service is temporarily unavailable. Retry shortly.", {
      headers: { "Retry-After": "1" },
    });
  }
  console.error("Unhandled error:", error);
  return new ApiError("internal", "Internal server error.");
}

/** Maps anything thrown by a handler to the documented error body. */
export function errorResponse(error: unknown): Response {
  const apiError = toApiError(error);
  const body: ErrorBody = {
    success: false,
    error: {
      code: apiError.code,
      message: apiError.message,
      ...(apiError.details ? { details: apiError.details } : {}),
    },
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
