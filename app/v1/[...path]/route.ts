import { errorResponse } from "@/lib/api/error-response";
import { ApiError } from "@/lib/errors";

// Any /v1 path without a route answers with the API's JSON error body instead of the HTML 404 page.
function notFound(request: Request): Response {
  const { pathname } = new URL(request.url);
  return errorResponse(
    new ApiError("not_found", `No API route at ${request.method} ${pathname}. See /v1/openapi.json.`),
  );
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
