import { ApiError } from "@/lib/errors";

/**
 * Reads a web stream into memory, never holding more than `limit` bytes: a larger declared length is refused before
 * reading, and a stream that grows past the limit (chunked, or lying about its length) is cancelled. Used for request
 * bodies and for upstream answers alike.
 */
export async function readLimited(
  stream: ReadableStream<Uint8Array> | null,
  declaredLength: string | null,
  limit: number,
  tooLarge: () => Error,
): Promise<Buffer> {
  if (declaredLength !== null && Number(declaredLength) > limit) {
    await stream?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!stream) return Buffer.alloc(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/** A request body of at most `limit` bytes; more is 413 `payload_too_large`. */
export function readBodyWithLimit(request: Request, limit: number): Promise<Buffer> {
  return readLimited(
    request.body,
    request.headers.get("content-length"),
    limit,
    () => new ApiError("payload_too_large", `Request body exceeds ${limit} bytes.`),
  );
}
