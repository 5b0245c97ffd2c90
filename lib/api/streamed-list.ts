import { serializeJson } from "@/lib/contracts/raw-json";

/**
 * A success envelope whose list is written one item at a time: `{"success":true,"data":{"<listKey>":[…],…rest}}`, byte
 * for byte what `route` would send (`serializeJson`: a `RawJson` inside is written as the sender's text). Serialising a
 * page of large items in one `JSON.stringify` (and encoding it in one go) holds the event loop for as long as the whole
 * page takes and keeps the page twice more in memory; item by item, as the client reads, other requests run in between
 * and at most one item is held as text.
 */
export function streamedListResponse(listKey: string, items: readonly unknown[], rest: Record<string, unknown>) {
  const encoder = new TextEncoder();
  const tail = Object.entries(rest)
    .map(([key, value]) => `,${JSON.stringify(key)}:${serializeJson(value)}`)
    .join("");
  const pieces = [
    () => `{"success":true,"data":{${JSON.stringify(listKey)}:[`,
    ...items.map((item, index) => () => (index === 0 ? "" : ",") + serializeJson(item)),
    () => `]${tail}}}`,
  ];
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    // Called only when the reader wants more, so a slow client holds back the serialising rather than buffering it.
    pull(controller) {
      controller.enqueue(encoder.encode(pieces[next++]!()));
      if (next === pieces.length) controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "application/json" } });
}
