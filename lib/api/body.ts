import { ApiError } from "./errors";

function tooLarge(limit: number): ApiError {
  return new ApiError("payload_too_large", `Request body exceeds ${limit} bytes.`);
}

/**
 * Reads a request body into memory, never holding more than `limit` bytes: a larger declared Content-Length is
 * refused before reading, and a body that grows past the limit while streaming (chunked or lying) is cut off.
 */
export async function readBodyWithLimit(request: Request, limit: number): Promise<Buffer> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
