import { deliveryExportEndSchema } from "@/lib/contracts/webhooks";

/** Bytes of an export's tail kept while it downloads: more than its end line (`{"type":"end","count":…}`) takes. */
export const EXPORT_TAIL_BYTES = 256;

/** The last `EXPORT_TAIL_BYTES` of what was read so far, after `chunk`. */
export function keepTail(tail: Uint8Array, chunk: Uint8Array): Uint8Array {
  if (chunk.length >= EXPORT_TAIL_BYTES) return chunk.slice(chunk.length - EXPORT_TAIL_BYTES);
  const joined = new Uint8Array(Math.min(EXPORT_TAIL_BYTES, tail.length + chunk.length));
  const fromTail = joined.length - chunk.length;
  joined.set(tail.subarray(tail.length - fromTail), 0);
  joined.set(chunk, fromTail);
  return joined;
}

/**
 * The count an export's end line states, or null when the export does not end with one (it was cut: the connection
 * dropped, or the server failed part way and aborted the stream).
 */
export function exportEndCount(tail: Uint8Array): number | null {
  const text = new TextDecoder().decode(tail);
  if (!text.endsWith("\n")) return null;
  const last = text.slice(0, -1).split("\n").at(-1) ?? "";
  try {
    const end = deliveryExportEndSchema.safeParse(JSON.parse(last));
    return end.success ? end.data.count : null;
  } catch {
    return null;
  }
}
