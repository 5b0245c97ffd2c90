/**
 * What every bare baseline server shares: node:http, the body read as a stream and capped at 1 MiB like the inbox's,
 * the headers as a plain object, and the app's success answer (`{ received: true, deliveryId }`) once `store` settles,
 * so that the baselines differ from each other only in how they store a request. Prints `Ready on http://…` once
 * listening (bench/lib/processes.ts waits for it) and stops on SIGTERM.
 *
 * Environment: PORT, HOST.
 */
import { createServer, type IncomingMessage } from "node:http";
import process from "node:process";

const LIMIT = 1_048_576;

export interface BareRequest {
  body: Buffer;
  /** Lower-cased names, values as received. */
  headers: Record<string, string>;
  sourceIp: string;
}

function readBody(request: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > LIMIT) return resolve(null);
      chunks.push(chunk);
    });
    request.once("end", () => resolve(Buffer.concat(chunks, size)));
    request.once("error", reject);
  });
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let index = 0; index + 1 < request.rawHeaders.length; index += 2)
    headers[request.rawHeaders[index]!.toLowerCase()] = request.rawHeaders[index + 1]!;
  return headers;
}

/** Serves every request with `store` (which answers the new delivery's id); `close` runs on SIGTERM before exit. */
export function serveBare(store: (request: BareRequest) => Promise<string>, close = async () => {}): void {
  const server = createServer((request, response) => {
    void (async () => {
      try {
        const body = await readBody(request);
        if (!body) {
          response.writeHead(413).end();
          return;
        }
        const deliveryId = await store({
          body,
          headers: headersOf(request),
          sourceIp: request.socket.remoteAddress ?? "",
        });
        const answer = JSON.stringify({ received: true, deliveryId });
        response
          .writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) })
          .end(answer);
      } catch (error) {
        console.error(error);
        response.writeHead(500).end();
      }
    })();
  });

  server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    console.info(`Ready on http://127.0.0.1:${port}`);
  });

  process.on("SIGTERM", () => {
    server.close();
    server.closeAllConnections();
    void close().finally(() => process.exit(0));
  });
}
