/** Largest body the inbox accepts: exactly 1 MiB is stored, one byte more is refused. */
export const MAX_DELIVERY_BYTES = 1_048_576;

// jsonb nests as deep as PostgreSQL's stack allows; deeper documents are kept as text instead of failing the insert.
const MAX_JSON_DEPTH = 256;

/** `application/json`, `application/*+json`, any parameters and case. */
export function isJsonContentType(contentType: string | null): boolean {
  return contentType !== null && /^\s*application\/([\w.!#$&^-]+\+)?json\s*(;|$)/i.test(contentType);
}

function storableString(text: string): boolean {
  return text.isWellFormed() && !text.includes("\u0000");
}

/** Whether jsonb can hold the value as parsed: bounded nesting, finite numbers, no NUL or lone surrogate in any key or string. */
function fitsJsonb(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [current, depth] = stack.pop()!;
    if (typeof current === "string" && !storableString(current)) return false;
    // 1e400 parses as Infinity, which JSON.stringify would write as null: keep the text rather than change the value.
    if (typeof current === "number" && !Number.isFinite(current)) return false;
    if (current === null || typeof current !== "object") continue;
    if (depth > MAX_JSON_DEPTH) return false;
    for (const [key, child] of Object.entries(current)) {
      if (!storableString(key)) return false;
      stack.push([child, depth + 1]);
    }
  }
  return true;
}

/**
 * What PostgreSQL's jsonb cannot hold: NUL characters and lone UTF-16 surrogates. Such bodies are stored as text
 * with those characters replaced (U+FFFD); the exact bytes are always kept beside the payload.
 */
function storableText(text: string): string {
  return text.toWellFormed().replaceAll("\u0000", "\uFFFD");
}

/**
 * The `rawPayload` of a delivery: parsed JSON for JSON content types when it parses and fits jsonb, otherwise
 * `{ raw: <body as text> }`. The inbox never refuses a delivery for its content.
 */
export function toRawPayload(body: Uint8Array, contentType: string | null): unknown {
  const text = new TextDecoder("utf-8").decode(body); // invalid UTF-8 becomes U+FFFD; the bytes are kept anyway
  if (isJsonContentType(contentType) && text.trim() !== "") {
    try {
      const parsed: unknown = JSON.parse(text);
      if (fitsJsonb(parsed)) return parsed;
    } catch {
      // Not JSON after all: keep it as text below.
    }
  }
  return { raw: storableText(text) };
}
