/** `application/json` or `application/<anything>+json`, any parameters and case: the inbox parses these. */
export function isJsonContentType(contentType: string | null): boolean {
  if (!contentType) return false;
  const essence = contentType.split(";")[0]!.trim().toLowerCase();
  return essence === "application/json" || /^application\/[^/]+\+json$/.test(essence);
}

/** The inbox's text fallback `{ "raw": "<text>" }` (a body that is not JSON, or JSON that did not parse). */
export function isRawWrapper(payload: unknown): payload is { raw: string } {
  return (
    typeof payload === "object" &&
    payload !== null &&
    !Array.isArray(payload) &&
    Object.keys(payload).length === 1 &&
    typeof (payload as { raw?: unknown }).raw === "string"
  );
}
