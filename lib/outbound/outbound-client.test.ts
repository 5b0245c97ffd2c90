import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createOutboundClient, DEFAULT_USER_AGENT, type OutboundClientOptions } from "@/lib/outbound/outbound-client";
import { OutboundError, OutboundRefusedError } from "@/lib/outbound/types";
import { TEST_CERT, TEST_KEY } from "@/test/fakes/tls-certificate";

interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  localAddress: string | undefined;
}

interface Site {
  port: number;
  requests: SeenRequest[];
  close(): Promise<void>;
}

const open: Site[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((site) => site.close()));
});

/** A real HTTP server on loopback that records every request it sees before `handle` answers it. */
async function startSite(
  handle: (request: IncomingMessage, response: ServerResponse, body: string) => void,
  host = "127.0.0.1",
): Promise<Site> {
  const requests: SeenRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body,
        localAddress: request.socket.localAddress,
      });
      handle(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const site: Site = {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.push(site);
  return site;
}

/** A resolver mapping test names to addresses, counting calls. */
function fakeResolver(names: Record<string, string[]>) {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    return names[hostname] ?? [];
  };
  return { resolve, calls };
}

/** A client that reaches `site` as http://<name>/ through a resolver mapping every test name to loopback. */
function clientFor(site: Site, extra: OutboundClientOptions = {}) {
  const resolver = fakeResolver({ "acme.test": ["127.0.0.1"], "other.test": ["127.0.0.1"] });
  const client = createOutboundClient({
    allowLoopback: true,
    resolver: resolver.resolve,
    portOverrides: { http: site.port },
    ...extra,
  });
  return { client, calls: resolver.calls };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the request to fail");
}

describe("createOutboundClient: requests", () => {
  it("connects to the resolved address with the name as Host, sends an honest User-Agent and follows redirects", async () => {
    const site = await startSite((request, response) => {
      if (request.url === "/start") return void response.writeHead(301, { location: "/middle" }).end();
      if (request.url === "/middle")
        return void response.writeHead(302, { location: "http://other.test/end?x=1" }).end();
      response.setHeader("set-cookie", ["a=1; Path=/", "b=2; Path=/"]);
      response.end(`host=${request.headers.host}`);
    });
    const { client, calls } = clientFor(site);

    const response = await client.request("http://acme.test/start");

    expect(response.status).toBe(200);
    expect(response.text()).toBe("host=other.test");
    expect(response.url).toBe("http://other.test/end?x=1");
    expect(response.chain).toEqual(["http://acme.test/start", "http://acme.test/middle", "http://other.test/end?x=1"]);
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    // One resolution per hop, and every connection went to the address it returned.
    expect(calls).toEqual(["acme.test", "acme.test", "other.test"]);
    expect(site.requests.map((seen) => seen.headers.host)).toEqual(["acme.test", "acme.test", "other.test"]);
    expect(site.requests.every((seen) => seen.localAddress === "127.0.0.1")).toBe(true);
    expect(site.requests[0]!.headers["user-agent"]).toBe(DEFAULT_USER_AGENT);
    expect(client.userAgent).toContain("SignalboxBot");
  });

  it("keeps only the allowed addresses a name resolves to", async () => {
    const site = await startSite((_request, response) => response.end("ok"));
    const client = createOutboundClient({
      allowLoopback: true,
      resolver: async () => ["10.0.0.1", "169.254.169.254", "127.0.0.1"],
      portOverrides: { http: site.port },
    });

    const response = await client.request("http://mixed.test/");

    expect(response.text()).toBe("ok");
    expect(site.requests).toHaveLength(1);
  });

  it("tries the next address when one refuses the connection", async () => {
    const site = await startSite((_request, response) => response.end("second address"));
    // Nothing listens on ::1 at this port, so the first connection is refused before anything is sent.
    const client = createOutboundClient({
      allowLoopback: true,
      resolver: async () => ["::1", "127.0.0.1"],
      portOverrides: { http: site.port },
    });

    const response = await client.request("http://acme.test/");

    expect(response.text()).toBe("second address");
    expect(site.requests).toHaveLength(1);
  });

  it("times out while the resolver hangs", async () => {
    const client = createOutboundClient({ resolver: () => new Promise<string[]>(() => undefined) });

    const error = await failure(client.request("http://acme.test/", { timeoutMs: 100 }));

    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).reason).toBe("timeout");
  });

  it("lets the caller's User-Agent not replace ours but keeps its other headers on the same origin", async () => {
    const site = await startSite((request, response) => {
      if (request.url === "/a") return void response.writeHead(302, { location: "/b" }).end();
      response.end();
    });
    const { client } = clientFor(site);

    await client.request("http://acme.test/a", {
      headers: { "User-Agent": "Mozilla/5.0", Authorization: "Bearer same-origin", "X-Api-Key": "k" },
    });

    expect(site.requests[1]!.headers["user-agent"]).toBe(DEFAULT_USER_AGENT);
    expect(site.requests[1]!.headers.authorization).toBe("Bearer same-origin");
    expect(site.requests[1]!.headers["x-api-key"]).toBe("k");
  });

  it("drops credentials and other caller headers on a cross-origin redirect", async () => {
    const site = await startSite((request, response) => {
      if (request.headers.host === "acme.test")
        return void response.writeHead(307, { location: "http://other.test/landing" }).end();
      response.end("landed");
    });
    const { client } = clientFor(site);

    await client.request("http://acme.test/", {
      headers: {
        Authorization: "Bearer secret",
        "X-Api-Key": "key",
        Cookie: "session=1",
        "X-Custom": "yes",
        Accept: "text/html",
      },
    });

    const [first, second] = site.requests;
    expect(first!.headers.authorization).toBe("Bearer secret");
    expect(second!.headers.host).toBe("other.test");
    expect(second!.headers.authorization).toBeUndefined();
    expect(second!.headers["x-api-key"]).toBeUndefined();
    expect(second!.headers.cookie).toBeUndefined();
    expect(second!.headers["x-custom"]).toBeUndefined();
    expect(second!.headers.accept).toBe("text/html");
  });

  it("turns a POST into a GET without body on 303 and keeps it on 307", async () => {
    const site = await startSite((request, response) => {
      if (request.url === "/see-other") return void response.writeHead(303, { location: "/result" }).end();
      if (request.url === "/temporary") return void response.writeHead(307, { location: "/result" }).end();
      response.end(request.method);
    });
    const { client } = clientFor(site);

    const seeOther = await client.request("http://acme.test/see-other", {
      method: "POST",
      body: "payload",
      headers: { "Content-Type": "text/plain" },
    });
    const temporary = await client.request("http://acme.test/temporary", {
      method: "POST",
      body: "payload",
      headers: { "Content-Type": "text/plain" },
    });

    expect(seeOther.text()).toBe("GET");
    expect(site.requests[1]).toMatchObject({ method: "GET", body: "" });
    expect(site.requests[1]!.headers["content-type"]).toBeUndefined();
    expect(temporary.text()).toBe("POST");
    expect(site.requests[3]).toMatchObject({ method: "POST", body: "payload" });
  });

  it("refuses a redirect loop and returns the 3xx itself when redirects are off", async () => {
    const site = await startSite((request, response) => {
      const step = Number(request.url?.slice(1) || "0");
      response.writeHead(302, { location: `/${step + 1}` }).end();
    });
    const { client } = clientFor(site);

    const error = await failure(client.request("http://acme.test/0", { maxRedirects: 3 }));
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as OutboundRefusedError).reason).toBe("too_many_redirects");
    expect(site.requests).toHaveLength(4);

    const unfollowed = await client.request("http://acme.test/0", { maxRedirects: 0 });
    expect(unfollowed.status).toBe(302);
    expect(unfollowed.headers.get("location")).toBe("/1");
  });

  it("decodes text by the declared charset and refuses a body that is not JSON", async () => {
    const site = await startSite((request, response) => {
      if (request.url === "/latin1") {
        response.setHeader("content-type", "text/html; charset=ISO-8859-1");
        return void response.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      }
      if (request.url === "/json") return void response.end('{"ok":true}');
      response.end("<html>");
    });
    const { client } = clientFor(site);

    expect((await client.request("http://acme.test/latin1")).text()).toBe("café");
    expect((await client.request("http://acme.test/json")).json()).toEqual({ ok: true });
    const notJson = await client.request("http://acme.test/html");
    expect(() => notJson.json()).toThrow(expect.objectContaining({ name: "OutboundError", reason: "invalid_body" }));
  });
});

describe("createOutboundClient: https", () => {
  it("connects by address but verifies the certificate against the name and sends it as SNI", async () => {
    const serverNames: (string | false | null)[] = [];
    const server = createHttpsServer({ key: TEST_KEY, cert: TEST_CERT }, (request, response) => {
      serverNames.push((request.socket as TLSSocket).servername);
      response.end(`secure ${request.headers.host}`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const resolver = fakeResolver({ "acme.test": ["127.0.0.1"], "other.test": ["127.0.0.1"] });
      const client = createOutboundClient({
        allowLoopback: true,
        resolver: resolver.resolve,
        portOverrides: { https: port },
        ca: TEST_CERT,
      });

      const response = await client.request("https://acme.test/");
      expect(response.text()).toBe("secure acme.test");
      expect(serverNames).toEqual(["acme.test"]);

      // Same address, but the certificate is not for this name: a TLS failure, told apart from a refused connection.
      const mismatch = await failure(client.request("https://other.test/"));
      expect(mismatch).toBeInstanceOf(OutboundError);
      expect((mismatch as OutboundError).reason).toBe("tls");
      expect(serverNames).toHaveLength(1);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("createOutboundClient: address and URL checks", () => {
  it.each([
    ["http://localhost/", "localhost"],
    ["http://127.1/", "short IPv4"],
    ["http://0x7f000001/", "hex IPv4"],
    ["http://2130706433/", "decimal IPv4"],
    ["http://0x7f.1/", "mixed IPv4"],
    ["http://0/", "zero"],
    ["http://[::1]/", "IPv6 loopback"],
    ["http://[::ffff:127.0.0.1]/", "IPv4-mapped loopback"],
    ["http://loopback.test/", "a name resolving to 127.0.0.1"],
  ])("refuses %s (%s) without loopback allowed, before connecting", async (url) => {
    const site = await startSite((_request, response) => response.end("reached"));
    const client = createOutboundClient({ resolver: async () => ["127.0.0.1"], portOverrides: { http: site.port } });

    const error = await failure(client.request(url));

    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as OutboundRefusedError).reason).toBe("blocked_address");
    expect(error.message).not.toContain("127.0.0.1");
    expect(site.requests).toHaveLength(0);
  });

  it.each([
    "http://10.0.0.1/",
    "http://169.254.169.254/latest/meta-data",
    "http://[fd00:ec2::254]/",
    "http://private.test/",
  ])("refuses a redirect to %s", async (target) => {
    const site = await startSite((_request, response) => response.writeHead(302, { location: target }).end());
    const client = createOutboundClient({
      allowLoopback: true,
      resolver: async (name) => (name === "private.test" ? ["192.168.1.10"] : ["127.0.0.1"]),
      portOverrides: { http: site.port },
    });

    const error = await failure(client.request("http://acme.test/"));

    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as OutboundRefusedError).reason).toBe("blocked_address");
    expect(site.requests).toHaveLength(1);
  });

  it.each(["http://[::1]:PORT/", "http://2130706433:PORT/", "http://localhost:PORT/", "http://127.0.0.1:PORT/"])(
    "refuses a redirect to %s when loopback is allowed only for the first site",
    async (pattern) => {
      const other = await startSite(
        (_request, response) => response.end("internal"),
        pattern.includes("[::1]") ? "::1" : "127.0.0.1",
      );
      const site = await startSite((_request, response) =>
        response.writeHead(302, { location: pattern.replace("PORT", String(other.port)) }).end(),
      );
      const client = createOutboundClient({
        allowLoopback: { ports: [site.port] },
        resolver: async () => ["127.0.0.1"],
        portOverrides: { http: site.port },
      });

      const error = await failure(client.request("http://acme.test/"));

      expect(error).toBeInstanceOf(OutboundRefusedError);
      expect((error as OutboundRefusedError).reason).toBe("blocked_address");
      expect(site.requests).toHaveLength(1);
      expect(other.requests).toHaveLength(0);
    },
  );

  it.each([
    "ftp://example.com/",
    "file:///etc/passwd",
    "http://user:pass@example.com/",
    "http://example.com:22/",
    "https://example.com:6379/",
  ])("refuses %s before any DNS", async (url) => {
    const resolver = fakeResolver({ "example.com": ["93.184.215.14"] });
    const client = createOutboundClient({ resolver: resolver.resolve });

    const error = await failure(client.request(url));

    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as OutboundRefusedError).reason).toBe("blocked_url");
    expect(resolver.calls).toEqual([]);
  });

  it("refuses a redirect to a scheme other than http and https", async () => {
    const site = await startSite((_request, response) =>
      response.writeHead(302, { location: "gopher://acme.test/" }).end(),
    );
    const { client } = clientFor(site);

    const error = await failure(client.request("http://acme.test/"));

    expect((error as OutboundRefusedError).reason).toBe("blocked_url");
  });

  it("reports a name without addresses as a DNS failure and a closed port without naming the address", async () => {
    const site = await startSite((_request, response) => response.end());
    const closedPort = site.port;
    await site.close();
    open.splice(open.indexOf(site), 1);
    const client = createOutboundClient({
      allowLoopback: true,
      resolver: async (name) => (name === "closed.test" ? ["127.0.0.1"] : []),
      portOverrides: { http: closedPort },
    });

    const unknown = await failure(client.request("http://nowhere.test/"));
    expect(unknown).toBeInstanceOf(OutboundError);
    expect((unknown as OutboundError).reason).toBe("dns");

    const refused = await failure(client.request("http://closed.test/"));
    expect(refused).toBeInstanceOf(OutboundError);
    expect((refused as OutboundError).reason).toBe("connect");
    expect(refused.message).not.toContain("127.0.0.1");
    expect(refused.message).not.toContain(String(closedPort));
  });
});

describe("createOutboundClient: limits", () => {
  it("truncates at maxBytes or refuses, as asked", async () => {
    const big = "x".repeat(100_000);
    const site = await startSite((request, response) => {
      // Chunked (no Content-Length) on /chunked, so the cap cannot rely on the declared length.
      if (request.url === "/chunked") {
        response.write(big.slice(0, 50_000));
        return void response.end(big.slice(50_000));
      }
      response.end(big);
    });
    const { client } = clientFor(site);

    const cut = await client.request("http://acme.test/", { maxBytes: 1000 });
    expect(cut.truncated).toBe(true);
    expect(cut.body).toHaveLength(1000);

    const whole = await client.request("http://acme.test/", { maxBytes: 100_000 });
    expect(whole.truncated).toBe(false);
    expect(whole.body).toHaveLength(100_000);

    for (const path of ["/", "/chunked"]) {
      const error = await failure(client.request(`http://acme.test${path}`, { maxBytes: 1000, overflow: "error" }));
      expect(error).toBeInstanceOf(OutboundError);
      expect((error as OutboundError).reason).toBe("too_large");
    }
  });

  it("decodes gzip, deflate (wrapped and raw) and brotli", async () => {
    const text = "hello ".repeat(1000);
    const encoders: Record<string, [string, (input: Buffer) => Buffer]> = {
      "/gzip": ["gzip", zlib.gzipSync],
      "/deflate": ["deflate", zlib.deflateSync],
      "/raw-deflate": ["deflate", zlib.deflateRawSync],
      "/br": ["br", zlib.brotliCompressSync],
    };
    const site = await startSite((request, response) => {
      const [encoding, encode] = encoders[request.url ?? ""]!;
      response.writeHead(200, { "content-encoding": encoding }).end(encode(Buffer.from(text)));
    });
    const { client } = clientFor(site);

    for (const path of Object.keys(encoders)) {
      const response = await client.request(`http://acme.test${path}`);
      expect(response.text(), path).toBe(text);
    }
    expect(site.requests[0]!.headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  // Compressing 2 × 50 MiB takes seconds on a busy 2-core machine: a ceiling, not a speed claim.
  it("caps a gzip bomb by its decoded size", { timeout: 60_000 }, async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(50 * 1024 * 1024), { level: 9 });
    const brotliBomb = zlib.brotliCompressSync(Buffer.alloc(50 * 1024 * 1024));
    const site = await startSite((request, response) => {
      const isBrotli = request.url === "/br";
      response.writeHead(200, {
        "content-encoding": isBrotli ? "br" : "gzip",
        "content-length": String((isBrotli ? brotliBomb : bomb).length),
      });
      response.end(isBrotli ? brotliBomb : bomb);
    });
    const { client } = clientFor(site);
    const maxBytes = 1024 * 1024;

    const cut = await client.request("http://acme.test/", { maxBytes });
    expect(cut.truncated).toBe(true);
    expect(cut.body).toHaveLength(maxBytes);

    const error = await failure(client.request("http://acme.test/", { maxBytes, overflow: "error" }));
    expect((error as OutboundError).reason).toBe("too_large");

    const brotliCut = await client.request("http://acme.test/br", { maxBytes });
    expect(brotliCut.truncated).toBe(true);
    expect(brotliCut.body).toHaveLength(maxBytes);
  });

  it.each(["gzip", "deflate", "br"])("reports a corrupt %s body as a protocol failure", async (encoding) => {
    const site = await startSite((_request, response) =>
      response.writeHead(200, { "content-encoding": encoding }).end("definitely not compressed at all"),
    );
    const { client } = clientFor(site);

    const error = await failure(client.request("http://acme.test/"));

    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).reason).toBe("protocol");
  });

  it("times out on a server that never answers, and on one that stalls mid-body", async () => {
    const site = await startSite((request, response) => {
      if (request.url === "/stall") response.writeHead(200, { "content-length": "100" }).write("partial");
      // Otherwise never answer.
    });
    const { client } = clientFor(site, { timeoutMs: 30_000 });
    const started = Date.now();

    const silent = await failure(client.request("http://acme.test/silent", { timeoutMs: 200 }));
    const stalled = await failure(client.request("http://acme.test/stall", { timeoutMs: 200 }));

    expect(silent).toBeInstanceOf(OutboundError);
    expect((silent as OutboundError).reason).toBe("timeout");
    expect((stalled as OutboundError).reason).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("stops when the caller aborts, before or during the request", async () => {
    let arrived: () => void = () => undefined;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const site = await startSite(() => arrived());
    const { client } = clientFor(site);

    const controller = new AbortController();
    const pending = client.request("http://acme.test/", { signal: controller.signal });
    await requestArrived;
    controller.abort();
    const error = await failure(pending);
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).reason).toBe("aborted");

    const already = await failure(client.request("http://acme.test/", { signal: AbortSignal.abort() }));
    expect((already as OutboundError).reason).toBe("aborted");
    expect(site.requests).toHaveLength(1);
  });

  it("runs at most perHostConcurrency requests to one host at once", async () => {
    let active = 0;
    let peak = 0;
    const site = await startSite((request, response) => {
      active++;
      peak = Math.max(peak, active);
      setTimeout(() => {
        active--;
        response.end(request.url);
      }, 40);
    });
    const { client } = clientFor(site, { perHostConcurrency: 2 });

    const bodies = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        client.request(`http://acme.test/${index}`).then((response) => response.text()),
      ),
    );

    expect(bodies).toEqual(["/0", "/1", "/2", "/3", "/4", "/5"]);
    expect(peak).toBe(2);
  });
});

describe("createOutboundClient: robots.txt", () => {
  it("refuses what robots.txt disallows for our token and fetches the rest", async () => {
    const site = await startSite((request, response) => {
      if (request.url === "/robots.txt")
        return void response.end(
          "User-agent: *\nDisallow: /\n\nUser-agent: SignalboxBot\nDisallow: /private\nAllow: /\n",
        );
      response.end("page");
    });
    const { client } = clientFor(site);

    const allowed = await client.request("http://acme.test/public", { robots: true });
    const error = await failure(client.request("http://acme.test/private/x", { robots: true }));
    await client.request("http://acme.test/private/y");

    expect(allowed.text()).toBe("page");
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as OutboundRefusedError).reason).toBe("robots");
    // robots.txt once (cached), the allowed page, and the robots-free request; never /private/x.
    expect(site.requests.map((seen) => seen.url)).toEqual(["/robots.txt", "/public", "/private/y"]);
    expect(site.requests[0]!.headers["user-agent"]).toBe(DEFAULT_USER_AGENT);
  });

  it("allows everything when robots.txt is 404 and nothing when it is 500", async () => {
    const site = await startSite((request, response) => {
      if (request.url === "/robots.txt")
        return void response.writeHead(request.headers.host === "acme.test" ? 404 : 500).end();
      response.end("page");
    });
    const { client } = clientFor(site);

    expect((await client.request("http://acme.test/any", { robots: true })).text()).toBe("page");
    const error = await failure(client.request("http://other.test/any", { robots: true }));
    expect((error as OutboundRefusedError).reason).toBe("robots");
    expect(site.requests.map((seen) => `${seen.headers.host}${seen.url}`)).toEqual([
      "acme.test/robots.txt",
      "acme.test/any",
      "other.test/robots.txt",
    ]);
  });

  it("checks robots.txt again on the origin a redirect leads to", async () => {
    const site = await startSite((request, response) => {
      if (request.url === "/robots.txt")
        return void response.end(
          request.headers.host === "other.test" ? "User-agent: signalboxbot\nDisallow: /\n" : "",
        );
      response.writeHead(302, { location: "http://other.test/page" }).end();
    });
    const { client } = clientFor(site);

    const error = await failure(client.request("http://acme.test/start", { robots: true }));

    expect((error as OutboundRefusedError).reason).toBe("robots");
    expect(site.requests.map((seen) => `${seen.headers.host}${seen.url}`)).toEqual([
      "acme.test/robots.txt",
      "acme.test/start",
      "other.test/robots.txt",
    ]);
  });
});
