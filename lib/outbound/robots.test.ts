import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createOutboundClient } from "@/lib/outbound/outbound-client";
import { createRobotsCache } from "@/lib/outbound/robots";
import { OutboundRefusedError } from "@/lib/outbound/types";

const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A loopback site answering `handle`, reachable as http://<any>.test/ through the returned client; counts requests. */
async function siteWithClient(handle: (request: IncomingMessage, response: ServerResponse) => void) {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    paths.push(`${request.headers.host}${request.url}`);
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const port = (server.address() as AddressInfo).port;
  const client = createOutboundClient({
    allowLoopback: true,
    resolver: async () => ["127.0.0.1"],
    portOverrides: { http: port },
  });
  return { client, paths };
}

const ROBOTS = [
  "User-agent: *",
  "Disallow: /",
  "",
  "User-agent: SignalboxBot",
  "Disallow: /admin",
  "Allow: /admin/public",
  "",
  "Sitemap: https://acme.test/sitemap.xml",
  "Sitemap: https://acme.test/news-sitemap.xml",
].join("\n");

describe("createRobotsCache", () => {
  it("matches the rules for our product token and lists the sitemaps", async () => {
    const { client, paths } = await siteWithClient((_request, response) => response.end(ROBOTS));
    const robots = createRobotsCache({ fetch: (url, init) => client.request(url, init) });

    const rules = await robots.robotsFor("http://acme.test");

    expect(rules.isAllowed("http://acme.test/")).toBe(true);
    expect(rules.isAllowed("http://acme.test/admin/users")).toBe(false);
    expect(rules.isAllowed("http://acme.test/admin/public/page")).toBe(true);
    expect(rules.sitemaps).toEqual(["https://acme.test/sitemap.xml", "https://acme.test/news-sitemap.xml"]);
    expect(paths).toEqual(["acme.test/robots.txt"]);
  });

  it("is shared by the client's robots: true requests and its robotsFor", async () => {
    const { client, paths } = await siteWithClient((_request, response) => response.end(ROBOTS));

    await client.request("http://acme.test/", { robots: true });
    const rules = await client.robotsFor("http://acme.test");

    expect(rules.sitemaps).toEqual(["https://acme.test/sitemap.xml", "https://acme.test/news-sitemap.xml"]);
    expect(rules.isAllowed("http://acme.test/admin")).toBe(false);
    expect(paths).toEqual(["acme.test/robots.txt", "acme.test/"]);
  });

  it("fetches an origin once for concurrent and later callers, and again after the cache expires", async () => {
    const { client, paths } = await siteWithClient((_request, response) =>
      response.end("User-agent: *\nDisallow: /x\n"),
    );
    let now = 1_000;
    const robots = createRobotsCache({
      fetch: (url, init) => client.request(url, init),
      ttlMs: 60_000,
      now: () => now,
    });

    const [first, second] = await Promise.all([
      robots.robotsFor("http://acme.test"),
      robots.robotsFor("http://acme.test/some/page"),
    ]);
    await robots.robotsFor("http://acme.test");
    expect(first.isAllowed("http://acme.test/x")).toBe(false);
    expect(second.isAllowed("http://acme.test/y")).toBe(true);
    expect(paths).toEqual(["acme.test/robots.txt"]);

    now += 60_001;
    await robots.robotsFor("http://acme.test");
    expect(paths).toEqual(["acme.test/robots.txt", "acme.test/robots.txt"]);
  });

  it("keeps at most maxOrigins origins", async () => {
    const { client, paths } = await siteWithClient((_request, response) => response.end(""));
    const robots = createRobotsCache({ fetch: (url, init) => client.request(url, init), maxOrigins: 2 });

    for (const host of ["a.test", "b.test", "c.test", "a.test"]) await robots.robotsFor(`http://${host}`);

    // a.test was pushed out by c.test, so it is fetched again.
    expect(paths).toEqual(["a.test/robots.txt", "b.test/robots.txt", "c.test/robots.txt", "a.test/robots.txt"]);
  });

  it.each([
    [404, true],
    [410, true],
    [401, true],
    [429, false],
    [500, false],
    [503, false],
  ])("treats robots.txt answering %i as allow-all = %s", async (status, allowed) => {
    const { client } = await siteWithClient((_request, response) => response.writeHead(status).end("Disallow: /"));
    const robots = createRobotsCache({ fetch: (url, init) => client.request(url, init) });

    const rules = await robots.robotsFor("http://acme.test");

    expect(rules.isAllowed("http://acme.test/page")).toBe(allowed);
  });

  it("follows a redirect to robots.txt elsewhere", async () => {
    const { client } = await siteWithClient((request, response) => {
      if (request.headers.host === "acme.test")
        return void response.writeHead(301, { location: "http://www.acme.test/robots.txt" }).end();
      response.end("User-agent: signalboxbot\nDisallow: /secret\n");
    });
    const robots = createRobotsCache({ fetch: (url, init) => client.request(url, init) });

    const rules = await robots.robotsFor("http://acme.test");

    expect(rules.isAllowed("http://acme.test/secret")).toBe(false);
    expect(rules.isAllowed("http://acme.test/open")).toBe(true);
  });

  it("disallows everything when the site cannot be reached, and passes on an address refusal", async () => {
    const unreachable = createOutboundClient({
      allowLoopback: true,
      resolver: async () => ["127.0.0.1"],
      portOverrides: { http: 1 },
    });
    const refused = createOutboundClient({ resolver: async () => ["10.0.0.1"] });

    const rules = await createRobotsCache({ fetch: (url, init) => unreachable.request(url, init) }).robotsFor(
      "http://acme.test",
    );
    const error = await createRobotsCache({ fetch: (url, init) => refused.request(url, init) })
      .robotsFor("http://internal.test")
      .catch((caught: unknown) => caught);

    expect(rules.isAllowed("http://acme.test/")).toBe(false);
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as OutboundRefusedError).reason).toBe("blocked_address");
  });
});
