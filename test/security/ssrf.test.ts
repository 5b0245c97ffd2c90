import dc from "node:diagnostics_channel";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fetchVideoDetails, VideoError } from "@/lib/media/youtube";
import { createSecEdgarFundingSource } from "@/lib/providers/first-party/funding/sec-edgar";
import { createDnsResolver } from "@/lib/outbound/dns-resolver";
import { createOutboundClient } from "@/lib/outbound/outbound-client";
import { type HostResolver, OutboundRefusedError } from "@/lib/outbound/types";
import { createWebhookSender } from "@/lib/outbound/webhook-sender";
import { createBuiltWithTechnographicsProvider } from "@/lib/providers/vendors/builtwith";
import { createHunterDomainEmailsProvider } from "@/lib/providers/vendors/hunter";
import { createPeopleDataLabsFundingProvider } from "@/lib/providers/vendors/peopledatalabs";
import { VendorError } from "@/lib/providers/vendors/vendor-error";
import { requestVendorJson } from "@/lib/providers/vendors/vendor-request";
import { crawlCompanySite } from "@/lib/providers/first-party/website/crawl-site";
import { type CompanySites, startCompanySites } from "@/test/fakes/company-sites";
import { type FakeDnsServer, startFakeDnsServer } from "@/test/fakes/dns-server";
import { FAKE_HUNTER_COMPANIES, type FakeHunter, startFakeHunter } from "@/test/fakes/hunter-server";
import { type FakeSecEdgar, startFakeSecEdgar } from "@/test/fakes/sec-edgar-server";
import { FAKE_VIDEOS, type FakeYouTube, startFakeYouTube } from "@/test/fakes/youtube-server";

/*
 * SSRF, call site by call site. Every outbound request of the app goes through the one OutboundClient
 * (lib/outbound); which addresses it refuses is proven address by address in address-policy.test.ts, and
 * how it resolves, checks and connects in outbound-client.test.ts. This suite shows that each call site actually
 * reaches the network through that client, with its own inputs: the YouTube client, the vendor adapters (through
 * vendor-request.ts, their one way out), SEC EDGAR, the website crawler and robots.txt, the DNS-backed resolver
 * the collectors use, and the forwarding sender (destination URLs from API callers, on the same pinned requests). For each: private ranges, loopback, link-local/metadata, IPv6 forms, decimal/octal/hex/short
 * IPv4 literals, names resolving to any of those, redirects to each, and DNS rebinding.
 *
 * "Never reached" is observed two ways: an internal service on loopback (127.0.0.1 and ::1, one port) that must log
 * no request, and every connection the process starts through node:http(s), read from the `http.client.request.start`
 * diagnostics channel (the address handed to the socket), which must never name a refused address.
 */

const CONTACT_UA = "SignalboxBot/0.1 (+company data collector; ops@signalbox.example)";
const REFUSED_REASONS = ["blocked_address", "blocked_url"];

// ------------------------------------------------------------------------------------------------ observation

/** Addresses the process asked node:http(s) to connect to, in order. */
const attempts: string[] = [];
const recordAttempt = (message: unknown) =>
  attempts.push(String((message as { request: { host?: string } }).request.host));

interface Recorder {
  requests: string[];
  port: number;
  close(): Promise<void>;
}

/** A server that logs every request and answers with `handle` (default: a secret an attacker would want). */
async function listen(
  host: string,
  port: number,
  requests: string[],
  handle?: (url: string, response: ServerResponse) => void,
): Promise<Server> {
  const server = createServer((request, response) => {
    requests.push(`${request.headers.host ?? ""}${request.url ?? ""}`);
    if (handle) handle(request.url ?? "/", response);
    else response.writeHead(200, { "content-type": "application/json" }).end('{"secret":"internal"}');
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return server;
}

function closeAll(servers: Server[]): Promise<void> {
  return Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  ).then(() => undefined);
}

/** The internal service: one port on 127.0.0.1 and ::1. */
async function startInternal(): Promise<Recorder> {
  const requests: string[] = [];
  const v4 = await listen("127.0.0.1", 0, requests);
  const port = (v4.address() as AddressInfo).port;
  const v6 = await listen("::1", port, requests);
  return { requests, port, close: () => closeAll([v4, v6]) };
}

/** A loopback site that answers 302 to `target()` (robots.txt too when `robots` is set; else robots.txt is 404). */
async function startRedirector(target: () => string, options: { robots?: boolean } = {}): Promise<Recorder> {
  const requests: string[] = [];
  const server = await listen("127.0.0.1", 0, requests, (url, response) => {
    if (url === "/robots.txt" && !options.robots) return void response.writeHead(404).end();
    response.writeHead(302, { location: target() }).end();
  });
  return { requests, port: (server.address() as AddressInfo).port, close: () => closeAll([server]) };
}

/** A resolver from a table, logging each lookup and its answer. */
function tableResolver(table: Record<string, string[] | ((lookup: number) => string[])>) {
  const lookups: { name: string; answer: string[] }[] = [];
  const resolve: HostResolver = async (name) => {
    const entry = table[name];
    const answer =
      typeof entry === "function" ? entry(lookups.filter((lookup) => lookup.name === name).length) : (entry ?? []);
    lookups.push({ name, answer });
    return answer;
  };
  return { resolve, lookups };
}

/** The client as production builds it (no loopback), or with loopback allowed on the given ports only (test fakes). */
function client(resolver: HostResolver, options: { loopbackPorts?: number[]; httpPort?: number } = {}) {
  return createOutboundClient({
    userAgent: CONTACT_UA,
    resolver,
    allowLoopback: options.loopbackPorts ? { ports: options.loopbackPorts } : false,
    portOverrides: options.httpPort ? { http: options.httpPort } : undefined,
    timeoutMs: 5_000,
  });
}

/** The client, logging why each request it refused was refused. */
function watched(http: ReturnType<typeof createOutboundClient>) {
  const refusals: string[] = [];
  const wrapped: ReturnType<typeof createOutboundClient> = {
    userAgent: http.userAgent,
    robotsFor: (origin, signal) =>
      http.robotsFor(origin, signal).catch((error: unknown) => {
        if (error instanceof OutboundRefusedError) refusals.push(error.reason);
        throw error;
      }),
    request: (url, init) =>
      http.request(url, init).catch((error: unknown) => {
        if (error instanceof OutboundRefusedError) refusals.push(error.reason);
        throw error;
      }),
  };
  return { http: wrapped, refusals };
}

// ------------------------------------------------------------------------------------------------ the targets

/**
 * URLs whose host alone names a non-public address (`PORT`: the internal service's port). Literal forms the WHATWG
 * URL parser turns into 127.0.0.1 (decimal, octal, hex, short) are the same host to every layer, so they are refused
 * as loopback; the others by their range.
 */
const BLOCKED_URLS: readonly [string, string][] = [
  ["loopback 127.0.0.1", "http://127.0.0.1:PORT/"],
  ["decimal 2130706433", "http://2130706433:PORT/"],
  ["octal 0177.0.0.1", "http://0177.0.0.1:PORT/"],
  ["hex 0x7f000001", "http://0x7f000001:PORT/"],
  ["short 127.1", "http://127.1:PORT/"],
  ["localhost", "http://localhost:PORT/"],
  ["IPv6 [::1]", "http://[::1]:PORT/"],
  ["IPv4-mapped [::ffff:127.0.0.1]", "http://[::ffff:127.0.0.1]:PORT/"],
  ["IPv4-mapped [::ffff:7f00:1]", "http://[::ffff:7f00:1]:PORT/"],
  ["all zeros 0.0.0.0", "http://0.0.0.0:PORT/"],
  ["private 10.0.0.1", "http://10.0.0.1/"],
  ["private 172.16.0.1", "http://172.16.0.1/"],
  ["private 192.168.1.1", "http://192.168.1.1/"],
  ["carrier-grade NAT 100.64.0.1", "http://100.64.0.1/"],
  ["metadata 169.254.169.254", "http://169.254.169.254/latest/meta-data/"],
  ["decimal metadata 2852039166", "http://2852039166/latest/meta-data/"],
  ["link-local [fe80::1]", "http://[fe80::1]/"],
  ["unique local [fc00::1]", "http://[fc00::1]/"],
  ["metadata [fd00:ec2::254]", "http://[fd00:ec2::254]/"],
  ["NAT64 metadata [64:ff9b::a9fe:a9fe]", "http://[64:ff9b::a9fe:a9fe]/"],
];

/** What a name may resolve to that no call site may connect to. */
const BLOCKED_ANSWERS: readonly [string, string][] = [
  ["private 10/8", "10.1.2.3"],
  ["private 172.16/12", "172.16.5.4"],
  ["private 192.168/16", "192.168.1.1"],
  ["carrier-grade NAT", "100.64.0.1"],
  ["metadata", "169.254.169.254"],
  ["this network", "0.0.0.0"],
  ["loopback", "127.0.0.1"],
  ["IPv6 loopback", "::1"],
  ["IPv4-mapped loopback", "::ffff:127.0.0.1"],
  ["IPv4-mapped loopback, hex", "::ffff:7f00:1"],
  ["IPv6 link-local", "fe80::1"],
  ["IPv6 unique local", "fc00::1"],
  ["IPv6 metadata", "fd00:ec2::254"],
  ["NAT64 metadata", "64:ff9b::a9fe:a9fe"],
];

// ------------------------------------------------------------------------------------------------ the call sites

type Client = ReturnType<typeof createOutboundClient>;

/** A call site fed one configured base URL; resolves true only when it got data from there. */
interface ConfiguredSite {
  name: string;
  /** Whether the call site follows redirects itself (through the client, which checks every hop). */
  followsRedirects: boolean;
  run(base: string, http: Client): Promise<boolean>;
}

const signal = () => AbortSignal.timeout(8_000);
const hasFields = (fields: object) => Object.keys(fields).length > 0;

/** A failure of the expected kind means "no data"; anything else is a bug in the test or the code. */
function noDataOn(kind: new (...args: never[]) => Error) {
  return (error: unknown) => {
    expect(error).toBeInstanceOf(kind);
    return false;
  };
}

const CONFIGURED_SITES: readonly ConfiguredSite[] = [
  {
    name: "YouTube (YOUTUBE_BASE_URL)",
    followsRedirects: false,
    run: (base, http) =>
      fetchVideoDetails(FAKE_VIDEOS.normal, { http, baseUrl: base }).then(() => true, noDataOn(VideoError)),
  },
  {
    name: "vendor request (every adapter's way out)",
    followsRedirects: false,
    run: (base, http) =>
      requestVendorJson({
        http,
        url: `${base.replace(/\/$/, "")}/v1/lookup`,
        headers: { "x-api-key": "sk_test" },
        signal: signal(),
      }).then((answer) => answer.found, noDataOn(VendorError)),
  },
  {
    name: "email finder adapter (HUNTER_API_URL)",
    followsRedirects: false,
    run: (base, http) =>
      createHunterDomainEmailsProvider({ apiKey: "sk_test", baseUrl: base, http })
        .enrich({ domain: FAKE_HUNTER_COMPANIES[0]!.domain, wanted: 5 }, { signal: signal() })
        .then(hasFields, noDataOn(VendorError)),
  },
  {
    name: "company data adapter (PEOPLEDATALABS_API_URL)",
    followsRedirects: false,
    run: (base, http) =>
      createPeopleDataLabsFundingProvider({ apiKey: "sk_test", baseUrl: base, http })
        .enrich({ domain: "acme.example", signal: "funding" }, { signal: signal() })
        .then(hasFields, noDataOn(VendorError)),
  },
  {
    name: "technographics adapter (BUILTWITH_API_URL)",
    followsRedirects: false,
    run: (base, http) =>
      createBuiltWithTechnographicsProvider({ apiKey: "sk_test", baseUrl: base, http })
        .enrich({ domain: "acme.example", signal: "technographics" }, { signal: signal() })
        .then(hasFields, noDataOn(VendorError)),
  },
  {
    name: "SEC EDGAR search (SEC_EDGAR_SEARCH_URL)",
    followsRedirects: false,
    run: (base, http) =>
      createSecEdgarFundingSource({ http, searchBaseUrl: base, archiveBaseUrl: base, requestIntervalMs: 0 })
        .findFunding("Lumenfold Robotics", signal())
        .then((funding) => funding !== null, noDataOn(VendorError)),
  },
  {
    name: "robots.txt",
    followsRedirects: true,
    run: (base, http) =>
      http.robotsFor(new URL(base).origin).then(
        () => true,
        (error: unknown) => {
          expect(error).toBeInstanceOf(OutboundRefusedError);
          return false;
        },
      ),
  },
];

// ------------------------------------------------------------------------------------------------ set-up

let internal: Recorder;

beforeAll(async () => {
  dc.subscribe("http.client.request.start", recordAttempt);
  internal = await startInternal();
});

afterAll(async () => {
  dc.unsubscribe("http.client.request.start", recordAttempt);
  await internal.close();
});

afterEach(() => {
  attempts.length = 0;
  internal.requests.length = 0;
});

const withPort = (url: string, port = internal.port) => url.replace("PORT", String(port));
/**
 * The URL without its port: production clients refuse ports other than 80/443/8080/8443 before any DNS
 * ("blocked_url"), so to exercise the address checks the URL keeps the default port and the client connects port-less
 * URLs to the internal service's port (`portOverrides`), where a wrongly allowed request would be seen.
 */
const portless = (url: string) => url.replace(":PORT", "");
const refusedAddresses = new Set(BLOCKED_ANSWERS.map(([, address]) => address));

/** Nothing internal was reached, and no connection went anywhere but `allowed`. */
function expectNothingReached(allowed: string[] = []) {
  expect(internal.requests).toEqual([]);
  for (const address of attempts) {
    expect(allowed, `connection attempted to ${address}`).toContain(address);
    expect(refusedAddresses.has(address) && !allowed.includes(address)).toBe(false);
  }
}

// ------------------------------------------------------------------------------------------------ configured URLs

describe.each(CONFIGURED_SITES)("$name: a configured base URL that is not public", (site) => {
  it.each(BLOCKED_URLS)("refuses %s", async (_name, pattern) => {
    const { http, refusals } = watched(client(tableResolver({}).resolve, { httpPort: internal.port }));

    expect(await site.run(portless(pattern), http)).toBe(false);

    expectNothingReached();
    expect(attempts).toEqual([]);
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.every((reason) => reason === "blocked_address")).toBe(true);
  });

  it("refuses a loopback base URL on another port before any DNS", async () => {
    const resolver = tableResolver({});
    const { http, refusals } = watched(client(resolver.resolve));

    expect(await site.run(withPort("http://127.0.0.1:PORT/"), http)).toBe(false);

    expectNothingReached();
    expect(attempts).toEqual([]);
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.every((reason) => REFUSED_REASONS.includes(reason))).toBe(true);
  });

  it.each(BLOCKED_ANSWERS)("refuses a name resolving to %s (%s)", async (_name, address) => {
    const resolver = tableResolver({ "api.vendor.example": [address] });
    const { http, refusals } = watched(client(resolver.resolve, { httpPort: internal.port }));

    expect(await site.run("http://api.vendor.example/v2", http)).toBe(false);

    expectNothingReached();
    expect(attempts).toEqual([]);
    expect(refusals).toContain("blocked_address");
    expect(resolver.lookups.map((lookup) => lookup.name).every((name) => name === "api.vendor.example")).toBe(true);
  });
});

// ------------------------------------------------------------------------------------------------ redirects

describe.each(CONFIGURED_SITES)("$name: redirects", (site) => {
  const targets: [string, string][] = [
    ...BLOCKED_URLS,
    ...BLOCKED_ANSWERS.map(([name, address]): [string, string] => [
      `a name resolving to ${address} (${name})`,
      `http://internal.vendor.example:PORT/?${address}`,
    ]),
  ];

  it.each(targets)("never reaches %s through a redirect", async (_name, pattern) => {
    const location = withPort(pattern);
    const redirector = await startRedirector(() => location, { robots: true });
    try {
      const answer = new URL(location).search.slice(1) || "10.0.0.1";
      const resolver = tableResolver({ "api.vendor.example": ["127.0.0.1"], "internal.vendor.example": [answer] });
      // Loopback allowed on the redirector's port only: the internal service, on another port, stays out of reach.
      const { http, refusals } = watched(client(resolver.resolve, { loopbackPorts: [redirector.port] }));

      expect(await site.run(`http://api.vendor.example:${redirector.port}/v2`, http)).toBe(false);

      expectNothingReached(["127.0.0.1"]);
      expect(redirector.requests.length).toBeGreaterThan(0);
      // Only the redirector was connected to: one attempt per request it logged.
      expect(attempts).toHaveLength(redirector.requests.length);
      if (site.followsRedirects)
        expect(refusals).toEqual(expect.arrayContaining([expect.stringMatching(/^blocked_(address|url)$/)]));
    } finally {
      await redirector.close();
    }
  });
});

// ------------------------------------------------------------------------------------------------ the crawler

describe("website crawler (domains from API callers)", () => {
  it.each(BLOCKED_URLS)("reads nothing from %s given as the company domain", async (_name, pattern) => {
    const host = portless(pattern)
      .replace(/^http:\/\//, "")
      .replace(/\/.*$/, "");
    const { http } = watched(client(tableResolver({}).resolve, { httpPort: internal.port }));

    // The API only takes public host names (lib/contracts/enrichment.ts); the crawler is a second line. Some literals
    // make it throw ("www." + an IP is no URL), others it reads nothing from: either way it reaches nothing.
    const crawl = await crawlCompanySite(host, { http }).catch((error: unknown) => error);

    if (!(crawl instanceof Error)) expect(crawl).toMatchObject({ homeUrl: null, pages: [] });
    expectNothingReached();
    expect(attempts).toEqual([]);
  });

  it.each(BLOCKED_ANSWERS)("reads nothing from a domain resolving to %s (%s)", async (_name, address) => {
    const resolver = tableResolver({ "victim.example": [address], "www.victim.example": [address] });
    const { http, refusals } = watched(client(resolver.resolve, { httpPort: internal.port }));

    const crawl = await crawlCompanySite("victim.example", { http });

    expect(crawl).toMatchObject({ homeUrl: null, pages: [] });
    expectNothingReached();
    expect(attempts).toEqual([]);
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.every((reason) => reason === "blocked_address")).toBe(true);
  });

  const redirectTargets: [string, string][] = [
    ...BLOCKED_URLS,
    // Same registrable domain, so the crawler itself would follow: only the client stands in the way.
    ...BLOCKED_ANSWERS.map(([name, address]): [string, string] => [
      `internal.site.example resolving to ${address} (${name})`,
      `http://internal.site.example:PORT/?${address}`,
    ]),
  ];

  it.each(redirectTargets)("follows the home page's redirect to %s no further", async (_name, pattern) => {
    const location = withPort(pattern);
    const site = await startRedirector(() => location);
    try {
      const answer = new URL(location).search.slice(1) || "10.0.0.1";
      const resolver = tableResolver({
        "site.example": ["127.0.0.1"],
        "www.site.example": ["127.0.0.1"],
        "internal.site.example": [answer],
      });
      const { http } = watched(client(resolver.resolve, { loopbackPorts: [site.port], httpPort: site.port }));

      const crawl = await crawlCompanySite("site.example", { http });

      expect(crawl.pages).toEqual([]);
      expectNothingReached(["127.0.0.1"]);
      expect(site.requests.some((request) => request.endsWith("/"))).toBe(true);
      expect(attempts).toHaveLength(site.requests.length);
    } finally {
      await site.close();
    }
  });
});

// ------------------------------------------------------------------------------------------------ DNS rebinding

describe("DNS rebinding", () => {
  let dnsServer: FakeDnsServer;
  let siteV4: Server;
  let internalV4: Server;
  let sharedPort: number;
  const siteRequests: string[] = [];
  const internalRequests: string[] = [];

  beforeAll(async () => {
    dnsServer = await startFakeDnsServer({});
    // The "public" site on 127.0.0.1 and an internal service on 127.0.0.2, on the same port: both loopback, both
    // allowed to this client, so only resolving once per hop keeps the connection on the address that was checked.
    siteV4 = await listen("127.0.0.1", 0, siteRequests, (url, response) => {
      if (url === "/hop") return void response.writeHead(302, { location: "/landing" }).end();
      response.end("public site");
    });
    sharedPort = (siteV4.address() as AddressInfo).port;
    internalV4 = await listen("127.0.0.2", sharedPort, internalRequests);
  });

  afterAll(async () => {
    await closeAll([siteV4, internalV4]);
    await dnsServer.close();
  });

  afterEach(() => {
    siteRequests.length = 0;
    internalRequests.length = 0;
    dnsServer.queries.length = 0;
  });

  /** The collectors' real resolver (c-ares, DNS_SERVERS) against a server whose answer changes after the first lookup. */
  function rebindingDns(first: string, then: string) {
    dnsServer.setZone({ "rebind.example": { A: [first] } });
    const dns = createDnsResolver({ servers: [dnsServer.server], timeoutMs: 1_000, tries: 1 });
    let lookups = 0;
    const resolve: HostResolver = async (name, abort) => {
      const answer = await dns.resolveHost(name, abort);
      lookups += 1;
      dnsServer.setZone({ "rebind.example": { A: [then] } });
      return answer;
    };
    return { resolve, lookups: () => lookups };
  }

  it("looks a name up once per request and connects to the address it checked, not to a later answer", async () => {
    const dns = rebindingDns("127.0.0.1", "127.0.0.2");
    const http = createOutboundClient({ resolver: dns.resolve, allowLoopback: { ports: [sharedPort] } });

    const response = await http.request(`http://rebind.example:${sharedPort}/page`);

    expect(response.text()).toBe("public site");
    expect(dns.lookups()).toBe(1);
    expect(dnsServer.queries.filter((query) => query.type === "A")).toHaveLength(1);
    expect(attempts).toEqual(["127.0.0.1"]);
    expect(internalRequests).toEqual([]);
  });

  it("checks the answer again on every hop: a redirect to the same name that now resolves to metadata is refused", async () => {
    const dns = rebindingDns("127.0.0.1", "169.254.169.254");
    const http = createOutboundClient({ resolver: dns.resolve, allowLoopback: { ports: [sharedPort] } });

    const error = await http.request(`http://rebind.example:${sharedPort}/hop`).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as OutboundRefusedError).reason).toBe("blocked_address");
    expect(dns.lookups()).toBe(2);
    expect(siteRequests).toEqual([`rebind.example:${sharedPort}/hop`]);
    expect(attempts).toEqual(["127.0.0.1"]);
  });

  it.each(BLOCKED_ANSWERS)("refuses a name whose DNS record (A or AAAA) is %s (%s)", async (_name, address) => {
    dnsServer.setZone({ "internal.example": address.includes(":") ? { AAAA: [address] } : { A: [address] } });
    const dns = createDnsResolver({ servers: [dnsServer.server], timeoutMs: 1_000, tries: 1 });
    const http = createOutboundClient({ resolver: dns.resolveHost, portOverrides: { http: sharedPort } });

    const error = await http.request("http://internal.example/").catch((caught: unknown) => caught);

    expect((error as OutboundRefusedError).reason).toBe("blocked_address");
    expect(dnsServer.queries.some((query) => query.name === "internal.example")).toBe(true);
    expect(attempts).toEqual([]);
    expect(internalRequests).toEqual([]);
  });
});

describe("DNS rebinding at each call site: allowed on the first lookup, metadata on every later one", () => {
  let youtube: FakeYouTube;
  let hunter: FakeHunter;
  let sec: FakeSecEdgar;
  let sites: CompanySites;

  beforeAll(async () => {
    [youtube, hunter, sec, sites] = await Promise.all([
      startFakeYouTube(),
      startFakeHunter(),
      startFakeSecEdgar(),
      startCompanySites(),
    ]);
  });

  afterAll(async () => {
    await Promise.all([youtube.close(), hunter.close(), sec.close(), sites.close()]);
  });

  /** `name` answers 127.0.0.1 to its first `allowed` lookups and the metadata address after. */
  function rebinding(names: string[], allowed = 1) {
    const table: Record<string, (lookup: number) => string[]> = {};
    for (const name of names) table[name] = (lookup) => (lookup < allowed ? ["127.0.0.1"] : ["169.254.169.254"]);
    return tableResolver(table);
  }

  const onHost = (base: string, host: string) => {
    const url = new URL(base);
    url.hostname = host;
    return url.href.replace(/\/$/, "");
  };

  /** Each connection used the answer of a lookup that allowed it, and none went to the rebinding answer. */
  function expectConnectionsOnlyToCheckedAnswers(resolver: ReturnType<typeof tableResolver>) {
    const allowedLookups = resolver.lookups.filter((lookup) => lookup.answer[0] === "127.0.0.1").length;
    expect(attempts.length).toBeGreaterThan(0);
    expect(attempts.length).toBeLessThanOrEqual(allowedLookups);
    expect(attempts.every((address) => address === "127.0.0.1")).toBe(true);
    expect(resolver.lookups.some((lookup) => lookup.answer[0] === "169.254.169.254")).toBe(true);
    expect(internal.requests).toEqual([]);
  }

  it("YouTube: the first call gets details, the next is refused", async () => {
    const resolver = rebinding(["youtube.example"]);
    const http = client(resolver.resolve, { loopbackPorts: [new URL(youtube.baseUrl).port].map(Number) });
    const baseUrl = onHost(youtube.baseUrl, "youtube.example");

    expect((await fetchVideoDetails(FAKE_VIDEOS.normal, { http, baseUrl })).video_id).toBe(FAKE_VIDEOS.normal);
    const error = await fetchVideoDetails(FAKE_VIDEOS.normal, { http, baseUrl }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(VideoError);
    expect(youtube.requests).toHaveLength(1);
    expect(resolver.lookups).toHaveLength(2);
    expectConnectionsOnlyToCheckedAnswers(resolver);
  });

  it("vendor adapter: the first call is answered, the next is refused without a retry", async () => {
    const resolver = rebinding(["api.hunter.example"]);
    const http = client(resolver.resolve, { loopbackPorts: [Number(new URL(hunter.baseUrl).port)] });
    const provider = createHunterDomainEmailsProvider({
      apiKey: hunter.apiKey,
      baseUrl: onHost(hunter.baseUrl, "api.hunter.example"),
      http,
    });
    const before = hunter.requests.length;

    expect(
      hasFields(await provider.enrich({ domain: FAKE_HUNTER_COMPANIES[0]!.domain, wanted: 5 }, { signal: signal() })),
    ).toBe(true);
    const error = await provider
      .enrich({ domain: FAKE_HUNTER_COMPANIES[0]!.domain, wanted: 5 }, { signal: signal() })
      .catch((caught: unknown) => caught);

    expect((error as VendorError).reason).toBe("refused");
    expect(hunter.requests.length - before).toBe(1);
    expect(resolver.lookups).toHaveLength(2);
    expectConnectionsOnlyToCheckedAnswers(resolver);
  });

  it("SEC EDGAR: the search is answered, the filings on the rebound name are refused", async () => {
    const resolver = rebinding(["efts.sec.example"]);
    const http = client(resolver.resolve, { loopbackPorts: [Number(new URL(sec.searchBaseUrl).port)] });
    const source = createSecEdgarFundingSource({
      http,
      searchBaseUrl: onHost(sec.searchBaseUrl, "efts.sec.example"),
      archiveBaseUrl: onHost(sec.archiveBaseUrl, "efts.sec.example"),
      requestIntervalMs: 0,
    });

    const error = await source.findFunding("Lumenfold Robotics", signal()).catch((caught: unknown) => caught);

    // The search went through; every filing read after it hit the rebound answer and none could be read.
    expect((error as VendorError).reason).toBe("unavailable");
    expect(sec.requests.map((request) => request.path)).toEqual(["/LATEST/search-index"]);
    expectConnectionsOnlyToCheckedAnswers(resolver);
  });

  it("crawler and robots.txt: what came before the rebinding is read, nothing after it", async () => {
    // Lookups 1-3: https robots.txt (nothing listens), http robots.txt, the home page; then the metadata address.
    const resolver = rebinding(["acme.example", "www.acme.example"], 3);
    const http = client(resolver.resolve, { loopbackPorts: [sites.port], httpPort: sites.port });
    const before = sites.requests.length;

    const crawl = await crawlCompanySite("acme.example", { http });

    expect(crawl.pages.length).toBeLessThanOrEqual(1);
    expect(sites.requests.length - before).toBeLessThanOrEqual(2);
    expectConnectionsOnlyToCheckedAnswers(resolver);
  });
});

// ------------------------------------------------------------------------------------------------ the one way out

describe("forwarding sender (destination URLs from API callers)", () => {
  /** The sender as forwardClientFromEnv builds it: FORWARD_ALLOW_PRIVATE unset, or `true`. */
  function sender(resolver: HostResolver, allowPrivate = false) {
    return createWebhookSender({ resolver, allowance: { private: allowPrivate, ranges: [] } });
  }
  const send = (forward: ReturnType<typeof sender>, url: string) =>
    forward.sendWebhook({ url, body: Buffer.from("{}"), headers: {}, timeoutMs: 5_000 });
  const linkLocal = ([name]: [string, string]) => /metadata|link-local/.test(name);

  // Forwarding takes any port, so the URL keeps the internal service's: a wrongly allowed request would reach it.
  it.each(BLOCKED_URLS)("sends nothing to %s", async (_name, pattern) => {
    const result = await send(sender(tableResolver({}).resolve), withPort(pattern));
    expect(result).toMatchObject({ kind: "failure", error: "refused", refusal: "blocked_address" });
    expectNothingReached();
    expect(attempts).toEqual([]);
  });

  it.each(BLOCKED_ANSWERS)("sends nothing to a name resolving to %s (%s)", async (_name, address) => {
    const resolver = tableResolver({ "victim.example": [address] });
    const result = await send(sender(resolver.resolve), withPort("http://victim.example:PORT/"));
    expect(result).toMatchObject({ kind: "failure", error: "refused", refusal: "blocked_address" });
    expectNothingReached();
    expect(attempts).toEqual([]);
  });

  it.each([...BLOCKED_URLS.filter(linkLocal), ...BLOCKED_ANSWERS.filter(linkLocal)])(
    "sends nothing to %s with FORWARD_ALLOW_PRIVATE=true",
    async (_name, target) => {
      const url = target.includes("/") ? withPort(target) : withPort("http://victim.example:PORT/");
      const result = await send(sender(tableResolver({ "victim.example": [target] }).resolve, true), url);
      expect(result).toMatchObject({ kind: "failure", error: "refused", refusal: "blocked_address" });
      expect(attempts).toEqual([]);
    },
  );
});

describe("the outbound client is the only way out", () => {
  /**
   * Server-side sources: lib/, except the browser client (lib/client) and the relay (lib/relay), a command that runs
   * on a developer's machine and posts to the receiver its user names (the layer rules keep it out of the server).
   */
  function serverSources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return ["generated", "client", "relay"].includes(entry.name) ? [] : serverSources(file);
      return /\.tsx?$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [file] : [];
    });
  }

  // Each entry says why the file may touch sockets: none of them makes an outbound request on a caller's behalf.
  const SOCKET_USERS: Record<string, string> = {
    "lib/outbound/outbound-client.ts": "the outbound client itself",
    "lib/outbound/pinned-request.ts": "the checked, pinned request the outbound client and the forwarding sender share",
    "lib/outbound/webhook-sender.ts":
      "keep-alive agents for the pinned requests, which connect to checked addresses only",
    "lib/env.ts": "isIP only, to validate FORWARD_ALLOW_PRIVATE",
    "lib/outbound/address-policy.ts": "isIPv4/isIPv6 only",
    "lib/inbox/source-ip.ts": "isIP only",
    "lib/db/embedded-postgres.ts": "finds a free loopback port for the embedded database",
    "lib/api/client-error.ts": "STATUS_CODES only, to answer requests Node's parser refused",
  };

  it("no server code calls fetch or opens sockets outside the outbound client", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const offenders: string[] = [];
    for (const file of serverSources(path.join(root, "lib"))) {
      const relative = path.relative(root, file).split(path.sep).join("/");
      const source = readFileSync(file, "utf8");
      if (/(^|[^.\w])fetch\s*\(|globalThis\.fetch|\bundici\b|\baxios\b|node-fetch/.test(source))
        offenders.push(`${relative}: fetch`);
      // Type-only imports open nothing.
      const sockets = /^import\s+(?!type\b)[^;]*from\s+"node:(http|https|net|tls|http2|dgram)"/m.test(source);
      if (sockets && !(relative in SOCKET_USERS)) offenders.push(`${relative}: sockets`);
    }
    expect(offenders).toEqual([]);
  });
});
