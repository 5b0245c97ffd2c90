import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/*
 * What the vendor fakes (hunter-server, peopledatalabs-server, builtwith-server) share: a real HTTP server on
 * 127.0.0.1 on a free port, a log of what it received, and the few answers every vendor's failure modes are made of.
 * Each fake adds its vendor's routes, authentication, documented bodies and error shapes.
 */

export interface FakeVendorRequest {
  method: string;
  /** Path and query exactly as received. */
  url: string;
  path: string;
  query: Record<string, string>;
  /** Lower-cased names, as node:http gives them. */
  headers: IncomingHttpHeaders;
}

export interface FakeVendorServer {
  /** "http://127.0.0.1:<port>". */
  origin: string;
  /** Every request received, oldest first. */
  requests: FakeVendorRequest[];
  /** Slow answers still waiting (for `answerLater`), cancelled by `close()`. */
  pending: Set<NodeJS.Timeout>;
  close(): Promise<void>;
}

/** Starts a fake on 127.0.0.1 on a free port; `handle` answers each request after it is logged. */
export async function startFakeVendorServer(
  handle: (request: FakeVendorRequest, response: ServerResponse) => void,
): Promise<FakeVendorServer> {
  const requests: FakeVendorRequest[] = [];
  const pending = new Set<NodeJS.Timeout>();
  const server = createServer((incoming, response) => {
    const url = new URL(incoming.url ?? "/", "http://fake.invalid");
    const request: FakeVendorRequest = {
      method: incoming.method ?? "",
      url: incoming.url ?? "",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: incoming.headers,
    };
    requests.push(request);
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    pending,
    close: async () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  response.end(JSON.stringify(body));
}

/** A 200 that starts like JSON and breaks off, as a dropped upstream connection or a broken proxy leaves it. */
export function sendTruncatedJson(response: ServerResponse, start: string): void {
  response.writeHead(200, { "content-type": "application/json; charset=utf-8" });
  response.end(start);
}

/** A redirect to another path on the same server: an adapter must not follow it (the key would go along). */
export function sendRedirect(response: ServerResponse, origin: string): void {
  response.writeHead(302, { location: `${origin}/elsewhere` });
  response.end();
}

/** A 200 of `bytes` bytes, declared in Content-Length or streamed in chunks without one. */
export function sendOversized(response: ServerResponse, bytes: number, declared: boolean): void {
  response.writeHead(200, {
    "content-type": "application/json; charset=utf-8",
    ...(declared && { "content-length": String(bytes) }),
  });
  const chunk = Buffer.alloc(64 * 1024, " ");
  let left = bytes;
  const write = () => {
    while (left > 0) {
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= piece.length;
      if (!response.write(piece)) return void response.once("drain", write);
    }
    response.end();
  };
  response.on("close", () => (left = 0));
  write();
}
