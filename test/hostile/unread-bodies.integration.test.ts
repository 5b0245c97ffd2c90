import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "@/test/app-server";

// Routes that answer without reading the request's body (a GET sent with one, a POST refused before its body is read)
// still get their whole answer to the sender: the connection is not closed on unread input, which would make the
// kernel reset it and could discard the answer at the sender before it was read (lib/api/request-drain.ts).

let app: RunningApp;

beforeAll(async () => {
  app = await startApp({ RATE_LIMIT_API_PER_MINUTE: "0" });
});

afterAll(async () => {
  await app?.stop();
});

/** Sends `head` and `body` on one connection and reads until the server closes it; what arrived, and any error. */
function exchange(head: string, body: Buffer): Promise<{ received: Buffer; error?: string }> {
  const url = new URL(app.baseUrl);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const done = (error?: Error) => resolve({ received: Buffer.concat(chunks), error: error?.message });
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.once("error", done);
    socket.once("close", () => done());
    socket.write(head);
    socket.write(body);
  });
}

function bodyOf(received: Buffer): Buffer {
  const headEnd = received.indexOf("\r\n\r\n");
  expect(headEnd).toBeGreaterThan(0);
  return received.subarray(headEnd + 4);
}

describe("answers to requests whose body the route does not read", () => {
  it("sends the whole OpenAPI document to a GET that carries a 2 MiB body", async () => {
    const body = Buffer.alloc(2 * 1024 * 1024, "a");
    const expected = Buffer.from(await (await fetch(`${app.baseUrl}/v1/openapi.json`)).arrayBuffer());
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const { received, error } = await exchange(
        `GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\n\r\n`,
        body,
      );
      expect(error).toBeUndefined();
      expect(received.subarray(0, 15).toString("latin1")).toBe("HTTP/1.1 200 OK");
      // Chunked or not, the document's last bytes arrived, and as many as a plain GET gets.
      const text = bodyOf(received).toString("latin1");
      expect(text).toContain(expected.subarray(-200).toString("latin1"));
      expect(text.length).toBeGreaterThanOrEqual(expected.length);
    }
  });

  it("sends the 401 to an upload refused before its 4 MiB body was read", async () => {
    const body = Buffer.alloc(4 * 1024 * 1024, "b");
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const { received, error } = await exchange(
        `POST /v1/webhook-endpoints HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer sbx_live_nope\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        body,
      );
      expect(error).toBeUndefined();
      expect(received.subarray(0, 12).toString("latin1")).toBe("HTTP/1.1 401");
      expect(bodyOf(received).toString("utf8")).toContain('"unauthorized"');
    }
  });
});
