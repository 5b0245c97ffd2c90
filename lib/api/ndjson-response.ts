import { serializeJson } from "@/lib/contracts/raw-json";

/**
 * A newline-delimited JSON answer: one line per item of `items`, then `end(count)` as the last line, which tells a
 * client the stream is complete. Pulled: the next item is asked for only once the previous line was taken by the
 * reader, so a slow client holds the producer back (back-pressure) instead of the lines piling up in memory. An error
 * after the first line cannot become an error body any more: it is logged and aborts the stream, which the client
 * sees as a cut (no end line); the first item is asked for before answering, so an error there (bad input, the
 * database down) is still the documented error body. A client that goes away ends the producer (`return()`).
 */
export async function ndjsonResponse(
  items: AsyncIterator<unknown>,
  end: (count: number) => unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const encoder = new TextEncoder();
  let count = 0;
  let ended = false;
  let first: IteratorResult<unknown> | null = await items.next();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (ended) return;
        try {
          const next = first ?? (await items.next());
          first = null;
          if (next.done) {
            ended = true;
            controller.enqueue(encoder.encode(`${serializeJson(end(count))}\n`));
            controller.close();
            return;
          }
          count += 1;
          controller.enqueue(encoder.encode(`${serializeJson(next.value)}\n`));
        } catch (error) {
          ended = true;
          console.error("NDJSON stream failed after", count, "lines:", error);
          controller.error(error);
        }
      },
      async cancel() {
        ended = true;
        await items.return?.();
      },
    },
    // One line queued at most: the next is made only when the reader took it.
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: { "content-type": "application/x-ndjson", ...headers } });
}
