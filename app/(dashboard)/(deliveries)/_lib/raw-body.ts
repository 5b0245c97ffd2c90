import { dashboardHeaders } from "@/lib/client/dashboard-client";
import { getDeliveryRawBodyContract } from "@/lib/contracts/webhooks";

/**
 * The raw body download. The typed client parses every answer as JSON and validates it, which cannot work for the
 * exact bytes this route returns (any content type); and a plain `<a href>` cannot send the headers a dashboard
 * session needs (the CSRF header and the workspace). So this one fetch uses `dashboardHeaders()` (the typed client's
 * own headers) and the contract's path.
 */
export function rawBodyUrl(deliveryId: string): string {
  return getDeliveryRawBodyContract.path.replace("{id}", encodeURIComponent(deliveryId));
}

const EXTENSIONS: [RegExp, string][] = [
  [/^application\/([^;]+\+)?json$/, "json"],
  [/^(application|text)\/([^;]+\+)?xml$/, "xml"],
  [/^application\/x-www-form-urlencoded$/, "txt"],
  [/^text\/html$/, "html"],
  [/^text\/csv$/, "csv"],
  [/^text\//, "txt"],
];

/** `delivery-<id>.json` and the like, from the content type; `.bin` when it says nothing useful. */
export function rawBodyFileName(deliveryId: string, contentType: string | null): string {
  const essence = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const extension = EXTENSIONS.find(([pattern]) => pattern.test(essence))?.[1] ?? "bin";
  return `delivery-${deliveryId.replace(/[^A-Za-z0-9_-]/g, "")}.${extension}`;
}

/**
 * The exact body as text, for "copy as curl" (the stored JSON payload is re-serialised by the database, with its keys
 * reordered); null when the bytes are not valid UTF-8 (a shell argument cannot carry them; the curl then falls back
 * to the stored payload).
 */
export async function fetchRawBodyText(deliveryId: string): Promise<string | null> {
  const response = await fetch(rawBodyUrl(deliveryId), { headers: dashboardHeaders() });
  if (!response.ok) throw new Error(`The raw body could not be loaded (${response.status}).`);
  return decodeUtf8(new Uint8Array(await response.arrayBuffer()));
}

/** Strict UTF-8 decoding; null for invalid bytes or a NUL (which no shell argument can hold). */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    return text.includes("\0") ? null : text;
  } catch {
    return null;
  }
}

/** Fetches the exact bytes and saves them as a file. Throws with the API's message on an error status. */
export async function downloadRawBody(deliveryId: string, contentType: string | null): Promise<void> {
  const response = await fetch(rawBodyUrl(deliveryId), { headers: dashboardHeaders() });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(body?.error?.message ?? `The raw body could not be loaded (${response.status}).`);
  }
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = rawBodyFileName(deliveryId, response.headers.get("content-type") ?? contentType);
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start the download before the URL goes away.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
