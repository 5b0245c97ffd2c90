import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a receiver got. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** How the next requests are answered; default 200 `ok`. */
  answer: (request: ReceivedRequest, response: ServerResponse) => void;
  close: () => Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1 for forwarding and relay tests: keeps every request it got, in order, and answers
 * as the test says (a status, a hang, a dropped connection).
 */
export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: "",
    requests: [],
    answer: (_request, response) => response.end("ok"),
    close: async () => {},
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const received: ReceivedRequest = {
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks),
        at: Date.now(),
      };
      receiver.requests.push(received);
      receiver.answer(received, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

/** Polls `check` until it returns a value other than undefined/false, or throws after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error("The condition did not hold in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
