/**
 * A refused request's body preview (base64 from the API) for display: the text when it is UTF-8 (a character cut at
 * the end of the preview is left out), else its first bytes in hex. `truncated` when more was read than kept.
 */
export function describeRejectionBody(
  bodyPreview: string | null,
  bodyBytesRead: number,
): { text: string; binary: boolean; truncated: boolean } | null {
  if (bodyPreview === null) return null;
  const bytes = Uint8Array.from(atob(bodyPreview), (character) => character.charCodeAt(0));
  const truncated = bodyBytesRead > bytes.length;
  try {
    // `stream: true` keeps an incomplete character at the end back instead of failing on it.
    return {
      text: new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true }),
      binary: false,
      truncated,
    };
  } catch {
    const hex = Array.from(bytes.subarray(0, 256), (byte) => byte.toString(16).padStart(2, "0")).join(" ");
    return { text: bytes.length > 256 ? `${hex} …` : hex, binary: true, truncated };
  }
}
