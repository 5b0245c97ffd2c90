import { ApiError } from "@/lib/errors";

/*
 * Request targets that are not a path (RFC 9112 §3.2), decided before anything routes them. Next.js answers `*` with a
 * 500 and an absolute URL (`GET http://169.254.169.254/x`) with a 308 to the host it names; this server answers for its
 * own origin only, so an absolute URL is served as the path it names (as a proxy-style client means it) and `*` is for
 * `OPTIONS` alone.
 */

/** The methods the server answers somewhere, for `OPTIONS *`. */
export const SERVER_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

export type TargetDecision =
  { kind: "path"; path: string } | { kind: "server-options" } | { kind: "refused"; error: ApiError };

// `http://host`, `https://host:port`, with any userinfo: what an absolute-form target starts with.
const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/** What to do with a request's target: route `path`, answer `OPTIONS *`, or refuse it. */
export function decideRequestTarget(method: string, target: string): TargetDecision {
  if (target.startsWith("/")) return { kind: "path", path: target };
  if (target === "*") {
    return method === "OPTIONS"
      ? { kind: "server-options" }
      : { kind: "refused", error: new ApiError("validation_error", "The request target `*` is for OPTIONS only.") };
  }
  const authority = ABSOLUTE_FORM.exec(target);
  if (authority) {
    // The rest, byte for byte, so the path is routed (and refused: dot segments, bad encoding) as in origin form.
    const rest = target.slice(authority[0].length);
    return { kind: "path", path: rest.startsWith("/") ? rest : `/${rest}` };
  }
  return {
    kind: "refused",
    error: new ApiError("validation_error", "The request target must be a path (or an http URL of this server)."),
  };
}
