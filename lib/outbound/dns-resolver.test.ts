import { createSocket, type Socket } from "node:dgram";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createDnsResolver } from "@/lib/outbound/dns-resolver";
import { OutboundError } from "@/lib/outbound/types";
import { type FakeDnsServer, startFakeDnsServer } from "@/test/fakes/dns-server";

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function fakeDns(zone: Parameters<typeof startFakeDnsServer>[0]): Promise<FakeDnsServer> {
  const dns = await startFakeDnsServer(zone);
  cleanups.push(() => dns.close());
  return dns;
}

/** A UDP socket that takes queries and never answers them. */
async function silentServer(): Promise<{ server: string; received: () => number }> {
  const socket: Socket = createSocket("udp4");
  let count = 0;
  socket.on("message", () => count++);
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => socket.close(() => resolve())));
  return { server: `127.0.0.1:${(socket.address() as AddressInfo).port}`, received: () => count };
}

describe("createDnsResolver", () => {
  it("resolves A then AAAA addresses, following CNAMEs", async () => {
    const dns = await fakeDns({
      "acme.example": { A: ["192.0.2.10", "192.0.2.11"], AAAA: ["2001:db8::10"] },
      "www.acme.example": { CNAME: "acme.example" },
    });
    const resolver = createDnsResolver({ servers: [dns.server] });

    expect(await resolver.resolveHost("acme.example")).toEqual(["192.0.2.10", "192.0.2.11", "2001:db8::10"]);
    expect(await resolver.resolveHost("www.acme.example")).toEqual(["192.0.2.10", "192.0.2.11", "2001:db8::10"]);
    expect(dns.queries).toContainEqual({ name: "acme.example", type: "A" });
    expect(dns.queries).toContainEqual({ name: "acme.example", type: "AAAA" });
  });

  it("answers an unknown name or a missing record type with an empty list", async () => {
    const dns = await fakeDns({ "v4only.example": { A: ["192.0.2.1"] }, "nomail.example": { TXT: ["hello"] } });
    const resolver = createDnsResolver({ servers: [dns.server] });

    expect(await resolver.resolveHost("missing.example")).toEqual([]);
    expect(await resolver.resolveHost("v4only.example")).toEqual(["192.0.2.1"]);
    expect(await resolver.resolveMx("nomail.example")).toEqual([]);
    expect(await resolver.resolveTxt("missing.example")).toEqual([]);
  });

  it("returns MX records and TXT records with their character-strings joined", async () => {
    const longSpf = `v=spf1 ${Array.from({ length: 20 }, (_, index) => `include:spf${index}.mailer.example`).join(" ")} -all`;
    const dns = await fakeDns({
      "acme.example": {
        MX: [
          { exchange: "mx2.acme.example", priority: 20 },
          { exchange: "mx1.acme.example", priority: 10 },
        ],
        TXT: [longSpf, "google-site-verification=abc"],
      },
    });
    const resolver = createDnsResolver({ servers: [dns.server] });

    expect(longSpf.length).toBeGreaterThan(255);
    expect(await resolver.resolveMx("acme.example")).toEqual(
      expect.arrayContaining([
        { exchange: "mx1.acme.example", priority: 10 },
        { exchange: "mx2.acme.example", priority: 20 },
      ]),
    );
    expect((await resolver.resolveTxt("acme.example")).sort()).toEqual(
      [longSpf, "google-site-verification=abc"].sort(),
    );
  });

  it("fails with reason dns when the server does not answer", async () => {
    const silent = await silentServer();
    const resolver = createDnsResolver({ servers: [silent.server], timeoutMs: 100, tries: 1 });

    const error = await resolver.resolveHost("acme.example").catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).reason).toBe("dns");
    expect((error as OutboundError).message).not.toContain("127.0.0.1");
    expect(silent.received()).toBeGreaterThan(0);
  });

  it("stops a lookup when its signal aborts", async () => {
    const silent = await silentServer();
    const resolver = createDnsResolver({ servers: [silent.server], timeoutMs: 20_000, tries: 1 });
    const controller = new AbortController();

    const pending = resolver.resolveTxt("acme.example", controller.signal).catch((caught: unknown) => caught);
    controller.abort();
    const error = await pending;

    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).reason).toBe("aborted");
  });
});
