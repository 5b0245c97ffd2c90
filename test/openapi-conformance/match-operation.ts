/** The parts of an OpenAPI 3.1 document the conformance check reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
}

export interface OperationMatch {
  /** JSON pointer of the matched path item, e.g. `/paths/~1v1~1workspace`. */
  pathItemPointer: string;
  pathItem: Record<string, unknown>;
  /** The operation's lower-case method key, or null when the path item has no operation for the method. */
  method: string | null;
  /** A segment is not valid percent-encoded UTF-8 (the app refuses that before it looks at the method). */
  malformed: boolean;
}

const OPERATION_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

export function escapePointer(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Decoded segments of a request path; a segment that is not valid percent-encoding stays `null` (matches a param). */
function pathSegments(pathname: string): (string | null)[] {
  return pathname
    .split("/")
    .slice(1)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return null;
      }
    });
}

/**
 * The path item serving `method` `pathname`, matched against the document's templates the way the app routes: a
 * static segment beats a `{param}` one, from the left (so `/deliveries/ack` is not `/deliveries/{id}`), and a path
 * with a dot segment (`.`, `..`, also %-encoded) matches none, since the app never resolves them (preflight.ts).
 */
export function matchOperation(document: OpenApiDocument, method: string, pathname: string): OperationMatch | null {
  const segments = pathSegments(pathname);
  if (segments.some((segment) => segment === "." || segment === "..")) return null;
  const candidates = Object.keys(document.paths)
    .map((template) => ({ template, parts: template.split("/").slice(1) }))
    .filter(
      ({ parts }) =>
        parts.length === segments.length &&
        parts.every((part, index) => {
          const segment = segments[index];
          return /^\{\w+\}$/.test(part) ? segment !== "" : part === segment;
        }),
    );
  if (candidates.length === 0) return null;
  const best = candidates.reduce((current, candidate) => {
    const index = current.parts.findIndex((part, at) => part.startsWith("{") !== candidate.parts[at]!.startsWith("{"));
    return index !== -1 && current.parts[index]!.startsWith("{") ? candidate : current;
  });
  const pathItem = document.paths[best.template]!;
  const key = method.toLowerCase();
  return {
    pathItemPointer: `/paths/${escapePointer(best.template)}`,
    pathItem,
    method: OPERATION_METHODS.includes(key) && key in pathItem ? key : null,
    malformed: segments.includes(null),
  };
}
