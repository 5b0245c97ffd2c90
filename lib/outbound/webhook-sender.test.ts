import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { ForwardingAllowance } from "@/lib/outbound/address-policy";
import { OutboundError } from "@/lib/outbound/types";
import {
  createWebhookSender,
  RESPONSE_PREFIX_BYTES,
  type WebhookAttemptResult,
  type WebhookFailure,
  type WebhookResponse,
  type WebhookSenderOptions,
} from "@/lib/outbound/webhook-sender";
import { TEST_CERT, TEST_KEY } from "@/test/fakes/tls-certificate";

// Every test talks to real node:http(s) servers on 127.0.0.1, reached only because the sender is told the operator
// allows it (FORWARD_ALLOW_PRIVATE); the refusals prove the same requests are not even attempted without that.

const ALLOW_LOOPBACK: ForwardingAllowance = { private: false, ranges: [["127.0.0.1", 32]] };

interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

interface Receiver {
  port: number;
  requests: SeenRequest[];
  /** Resolves when the server saw a connection close (we destroyed it). */
  closed: Promise<void>;
}

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          (server as ReturnType<typeof createServer>).closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** A receiver on 127.0.0.1 that records each request (the whole body) before `answer` responds. */
async function startReceiver(
  answer: (response: ServerResponse, request: IncomingMessage) => void = (response) => response.end("ok"),
): Promise<Receiver> {
  const requests: SeenRequest[] = [];
  let onClose: () => void = () => {};
  const closed = new Promise<void>((resolve) => (onClose = resolve));
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const { method = "", url = "", headers, rawHeaders } = request;
      requests.push({ method, url, headers, rawHeaders, body: Buffer.concat(chunks) });
      answer(response, request);
    });
  });
  server.on("connection", (socket) => socket.on("close", () => onClose()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { port: (server.address() as AddressInfo).port, requests, closed };
}

function senderFor(names: Record<string, string[]> = {}, options: WebhookSenderOptions = {}) {
  const lookups: string[] = [];
  const sender = createWebhookSender({
    allowance: ALLOW_LOOPBACK,
    resolver: async (hostname) => {
      lookups.push(hostname);
      return names[hostname] ?? [];
    },
    ...options,
  });
  return { sender, lookups };
}

function send(
  sender: ReturnType<typeof createWebhookSender>,
  url: string,
  extra: Partial<{ body: Buffer; headers: Record<string, string>; timeoutMs: number; signal: AbortSignal }> = {},
): Promise<WebhookAttemptResult> {
  return sender.sendWebhook({ url, body: Buffer.from("{}"), headers: {}, timeoutMs: 5_000, ...extra });
}

function asResponse(result: WebhookAttemptResult): WebhookResponse {
  if (result.kind !== "response") throw new Error(`expected a response, got ${result.error}: ${result.message}`);
  return result;
}

function asFailure(result: WebhookAttemptResult): WebhookFailure {
  if (result.kind !== "failure") throw new Error(`expected a failure, got status ${result.status}`);
  return result;
}

describe("sendWebhook: what is sent", () => {
  it("POSTs the exact bytes with content-length and the given headers to the checked address, by name", async () => {
    const receiver = await startReceiver((response) => response.writeHead(202, { "x-receipt": "r1" }).end("queued"));
    const { sender, lookups } = senderFor({ "hooks.internal": ["127.0.0.1"] });
    // Every byte value, invalid UTF-8 included: the body is bytes, not text.
    const body = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0xc3]), randomBytes(64 * 1024)]);

    const result = asResponse(
      await send(sender, `http://hooks.internal:${receiver.port}/in?source=stripe`, {
        body,
        headers: { "content-type": "application/octet-stream", "x-sender": "stripe", "user-agent": "Stripe/1.0" },
      }),
    );

    expect(result).toMatchObject({ status: 202, bodyTruncated: false });
    expect(result.headers["x-receipt"]).toBe("r1");
    expect(result.bodyPrefix.toString()).toBe("queued");
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(lookups).toEqual(["hooks.internal"]);
    const [seen] = receiver.requests;
    expect(seen).toMatchObject({ method: "POST", url: "/in?source=stripe" });
    expect(seen!.body.equals(body)).toBe(true);
    expect(seen!.headers).toMatchObject({
      host: `hooks.internal:${receiver.port}`,
      "content-length": String(body.length),
      "content-type": "application/octet-stream",
      "x-sender": "stripe",
      // The original sender's User-Agent travels as it came; we only ask for an uncompressed answer.
      "user-agent": "Stripe/1.0",
      "accept-encoding": "identity",
    });
    expect(seen!.headers["transfer-encoding"]).toBeUndefined();
  });

  it("names itself when the request has no User-Agent, and keeps framing headers its own", async () => {
    const receiver = await startReceiver();
    const { sender } = senderFor();
    asResponse(
      await send(sender, `http://127.0.0.1:${receiver.port}/`, {
        body: Buffer.from("abc"),
        headers: {
          host: "evil.example",
          "content-length": "1",
          "transfer-encoding": "chunked",
          connection: "upgrade",
          upgrade: "websocket",
        },
      }),
    );
    const [seen] = receiver.requests;
    expect(seen!.body.toString()).toBe("abc");
    expect(seen!.headers).toMatchObject({ host: `127.0.0.1:${receiver.port}`, "content-length": "3" });
    expect(seen!.headers["user-agent"]).toMatch(/^Signalbox-Forward\//);
    expect(seen!.headers["transfer-encoding"]).toBeUndefined();
    expect(seen!.headers.upgrade).toBeUndefined();
  });

  it("records a redirect as the answer and does not follow it", async () => {
    const receiver = await startReceiver((response) =>
      response.writeHead(308, { location: "/elsewhere" }).end("moved"),
    );
    const { sender } = senderFor();
    const result = asResponse(await send(sender, `http://127.0.0.1:${receiver.port}/hook`));
    expect(result.status).toBe(308);
    expect(result.headers.location).toBe("/elsewhere");
    expect(receiver.requests.map((request) => request.url)).toEqual(["/hook"]);
  });

  it("joins repeated response headers", async () => {
    const receiver = await startReceiver((response) => {
      response.setHeader("x-trace", ["a", "b"]);
      response.end();
    });
    const { sender } = senderFor();
    const result = asResponse(await send(sender, `http://127.0.0.1:${receiver.port}/`));
    expect(result.headers["x-trace"]).toBe("a, b");
    expect(result.bodyPrefix).toHaveLength(0);
  });
});

describe("sendWebhook: the response body", () => {
  it("keeps the first 4096 bytes and closes the connection instead of reading a body that never ends", async () => {
    const receiver = await startReceiver((response) => {
      response.writeHead(500, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(1024, "x");
      // An endless body: only destroying the connection ends this.
      const write = () => {
        while (response.write(chunk));
        response.once("drain", write);
      };
      write();
    });
    const { sender } = senderFor();
    const result = asResponse(await send(sender, `http://127.0.0.1:${receiver.port}/`, { timeoutMs: 30_000 }));
    expect(result.status).toBe(500);
    expect(result.bodyPrefix).toHaveLength(RESPONSE_PREFIX_BYTES);
    expect(result.bodyTruncated).toBe(true);
    await receiver.closed;
  });

  it("does not call a body of exactly 4096 bytes truncated", async () => {
    const body = randomBytes(RESPONSE_PREFIX_BYTES);
    const receiver = await startReceiver((response) => response.end(body));
    const { sender } = senderFor();
    const result = asResponse(await send(sender, `http://127.0.0.1:${receiver.port}/`));
    expect(result.bodyPrefix.equals(body)).toBe(true);
    expect(result.bodyTruncated).toBe(false);
  });

  it("keeps the answer when the body stalls past the deadline after the status came", async () => {
    const receiver = await startReceiver((response) => {
      response.writeHead(200);
      response.write("partial");
    });
    const { sender } = senderFor();
    const result = asResponse(await send(sender, `http://127.0.0.1:${receiver.port}/`, { timeoutMs: 300 }));
    expect(result).toMatchObject({ status: 200, bodyTruncated: true });
    expect(result.bodyPrefix.toString()).toBe("partial");
  });
});

describe("sendWebhook: failures", () => {
  it("times out when no status line comes", async () => {
    const receiver = await startReceiver(() => {});
    const { sender } = senderFor();
    const result = asFailure(await send(sender, `http://127.0.0.1:${receiver.port}/`, { timeoutMs: 200 }));
    expect(result.error).toBe("timeout");
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("times out while the resolver hangs", async () => {
    const sender = createWebhookSender({ allowance: ALLOW_LOOPBACK, resolver: () => new Promise(() => {}) });
    expect(asFailure(await send(sender, "http://slow-dns.test/", { timeoutMs: 100 })).error).toBe("timeout");
  });

  it("stops when the caller aborts", async () => {
    const receiver = await startReceiver(() => {});
    const { sender } = senderFor();
    const controller = new AbortController();
    const pending = send(sender, `http://127.0.0.1:${receiver.port}/`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(asFailure(await pending).error).toBe("aborted");
  });

  it("reports a refused connection without naming the address, and DNS failures as dns", async () => {
    const receiver = await startReceiver();
    const closedPort = receiver.port;
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const { sender } = senderFor({ "down.test": ["127.0.0.1"] });
    const refused = asFailure(await send(sender, `http://down.test:${closedPort}/`));
    expect(refused.error).toBe("connection");
    expect(refused.message).toContain("down.test");
    expect(refused.message).not.toContain("127.0.0.1");

    expect(asFailure(await send(sender, "http://nowhere.test/")).error).toBe("dns");
    const failing = createWebhookSender({
      resolver: async () => {
        throw new OutboundError("dns", "DNS lookup for broken.test failed (ESERVFAIL)");
      },
    });
    expect(asFailure(await send(failing, "http://broken.test/")).error).toBe("dns");
  });

  it("reports an answer that is not HTTP as protocol", async () => {
    const server = createServer();
    server.on("connection", (socket) => socket.end("SSH-2.0-OpenSSH_9.6\r\n"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    const { sender } = senderFor();
    const port = (server.address() as AddressInfo).port;
    expect(asFailure(await send(sender, `http://127.0.0.1:${port}/`)).error).toBe("protocol");
  });

  it("speaks https to a checked address, and tells a certificate failure apart", async () => {
    const server = createHttpsServer({ key: TEST_KEY, cert: TEST_CERT }, (_request, response) =>
      response.end("tls ok"),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    const port = (server.address() as AddressInfo).port;
    const names = { "acme.test": ["127.0.0.1"], "other.test": ["127.0.0.1"] };

    const trusting = senderFor(names, { ca: TEST_CERT }).sender;
    expect(asResponse(await send(trusting, `https://acme.test:${port}/`)).bodyPrefix.toString()).toBe("tls ok");
    // The certificate is for acme.test, not this name; and without the CA it is self-signed.
    expect(asFailure(await send(trusting, `https://other.test:${port}/`)).error).toBe("tls");
    expect(asFailure(await send(senderFor(names).sender, `https://acme.test:${port}/`)).error).toBe("tls");
  });
});

describe("sendWebhook: the address policy", () => {
  /** Public addresses only: FORWARD_ALLOW_PRIVATE unset. */
  function publicOnly(names: Record<string, string[]>) {
    return senderFor(names, { allowance: { private: false, ranges: [] } });
  }

  it.each([
    ["loopback", "http://127.0.0.1:PORT/"],
    ["localhost", "http://localhost:PORT/"],
    ["IPv6 loopback", "http://[::1]:PORT/"],
    ["IPv4-mapped IPv6 loopback", "http://[::ffff:127.0.0.1]:PORT/"],
    ["a name resolving to loopback", "http://loopback.test:PORT/"],
    ["a name resolving to 10/8", "http://private.test:PORT/"],
    ["a name resolving to an IPv4-mapped private address", "http://mapped.test:PORT/"],
    ["a name resolving to one public and one private address", "http://mixed.test:PORT/"],
  ])("refuses %s without the allowance, before connecting", async (_what, url) => {
    const receiver = await startReceiver();
    const { sender } = publicOnly({
      "loopback.test": ["127.0.0.1"],
      "private.test": ["10.1.2.3"],
      "mapped.test": ["::ffff:10.1.2.3"],
      "mixed.test": ["93.184.215.14", "127.0.0.1"],
    });
    const result = asFailure(await send(sender, url.replace("PORT", String(receiver.port))));
    expect(result).toMatchObject({ error: "refused", refusal: "blocked_address" });
    expect(result.message).not.toMatch(/10\.1\.2\.3|127\.0\.0\.1/);
    expect(receiver.requests).toEqual([]);
  });

  it("reaches what the allowance opens, and nothing it does not", async () => {
    const receiver = await startReceiver();
    const url = `http://127.0.0.1:${receiver.port}/`;
    const withPrivate = senderFor({}, { allowance: { private: true, ranges: [] } }).sender;
    expect(asResponse(await send(withPrivate, url)).status).toBe(200);
    const otherRange = senderFor({}, { allowance: { private: false, ranges: [["10.0.0.0", 8]] } }).sender;
    expect(asFailure(await send(otherRange, url)).error).toBe("refused");
    expect(receiver.requests).toHaveLength(1);
  });

  it("keeps link-local and metadata addresses refused under `true`", async () => {
    const { sender } = senderFor(
      { "metadata.test": ["169.254.169.254"], "aws6.test": ["fd00:ec2::254"] },
      { allowance: { private: true, ranges: [] } },
    );
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://metadata.test/", "http://aws6.test/"])
      expect(asFailure(await send(sender, url))).toMatchObject({ error: "refused", refusal: "blocked_address" });
  });

  it("refuses schemes other than http and https, URLs with credentials and invalid URLs", async () => {
    const { sender } = senderFor();
    for (const url of ["ftp://127.0.0.1/", "http://user:pass@127.0.0.1/", "not a url"])
      expect(asFailure(await send(sender, url))).toMatchObject({ error: "refused", refusal: "blocked_url" });
  });
});
