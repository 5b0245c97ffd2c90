import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lookupMailDns } from "@/lib/providers/first-party/dns/mail-dns";
import { createDnsResolver, type DnsResolver } from "@/lib/outbound/dns-resolver";
import { OutboundError } from "@/lib/outbound/types";
import { type FakeDnsServer, startFakeDnsServer } from "@/test/fakes/dns-server";

let dns: FakeDnsServer;
let resolver: DnsResolver;

beforeEach(async () => {
  dns = await startFakeDnsServer({});
  resolver = createDnsResolver({ servers: [dns.server] });
});

afterEach(async () => {
  await dns.close();
});

const longSpf =
  "v=spf1 ip4:192.0.2.0/24 include:_spf.google.com include:spf.protection.outlook.com ~include:servers.mcsv.net " +
  "include:mail.zendesk.com include:_spf.salesforce.com include:sendgrid.net include:mailgun.org include:spf.mandrillapp.com " +
  "include:_spf.createsend.com -all";

describe("lookupMailDns", () => {
  it("reads MX, SPF, DMARC and the apex TXT records of a Google Workspace domain", async () => {
    dns.setZone({
      "acme.example": {
        MX: [
          { exchange: "alt1.aspmx.l.google.com", priority: 5 },
          { exchange: "aspmx.l.google.com", priority: 1 },
          { exchange: "alt2.aspmx.l.google.com", priority: 5 },
        ],
        TXT: [longSpf, "google-site-verification=abc123", "MS=ms12345"],
      },
      "_dmarc.acme.example": { TXT: ["v=DMARC1; p=quarantine; rua=mailto:dmarc@acme.example"] },
    });

    const mail = await lookupMailDns("Acme.Example.", resolver);

    expect(longSpf.length).toBeGreaterThan(255);
    expect(mail.mx).toEqual([
      { exchange: "aspmx.l.google.com", priority: 1 },
      { exchange: "alt1.aspmx.l.google.com", priority: 5 },
      { exchange: "alt2.aspmx.l.google.com", priority: 5 },
    ]);
    expect(mail.mailProvider).toBe("Google Workspace");
    expect(mail.spf.record).toBe(longSpf);
    expect(mail.spf.includes).toEqual([
      "_spf.google.com",
      "spf.protection.outlook.com",
      "servers.mcsv.net",
      "mail.zendesk.com",
      "_spf.salesforce.com",
      "sendgrid.net",
      "mailgun.org",
      "spf.mandrillapp.com",
      "_spf.createsend.com",
    ]);
    expect(mail.dmarc).toEqual({
      record: "v=DMARC1; p=quarantine; rua=mailto:dmarc@acme.example",
      policy: "quarantine",
    });
    expect([...mail.txt].sort()).toEqual([longSpf, "MS=ms12345", "google-site-verification=abc123"].sort());
    expect(dns.queries).toContainEqual({ name: "_dmarc.acme.example", type: "TXT" });
  });

  it.each([
    ["acme-example.mail.protection.outlook.com", "Microsoft 365"],
    ["acme-example.d-v1.mx.microsoft", "Microsoft 365"],
    ["smtp.google.com", "Google Workspace"],
    ["mx.zoho.eu", "Zoho Mail"],
    ["mail.protonmail.ch", "Proton Mail"],
    ["in1-smtp.messagingengine.com", "Fastmail"],
    ["inbound-smtp.eu-west-1.amazonaws.com", "Amazon WorkMail / SES"],
    ["mx.yandex.net", "Yandex 360"],
    ["mx01.mail.icloud.com", "iCloud Mail"],
    ["smtp.secureserver.net", "GoDaddy"],
    ["mx1.mail.ovh.net", "OVHcloud"],
    ["mx00.ionos.de", "IONOS"],
    ["eu-smtp-inbound-1.mimecast.com", "Mimecast"],
    ["mx0a-00123456.pphosted.com", "Proofpoint"],
    ["d123.ess.barracudanetworks.com", "Barracuda"],
    ["mail.acme.example", null],
    ["notgoogle.com", null],
    ["ec2-1-2-3-4.compute.amazonaws.com", null],
  ])("names the provider of MX %s as %s", async (exchange, provider) => {
    dns.setZone({ "acme.example": { MX: [{ exchange, priority: 10 }] } });

    const mail = await lookupMailDns("acme.example", resolver);

    expect(mail.mailProvider).toBe(provider);
  });

  it("names the provider of the most preferred recognised MX", async () => {
    dns.setZone({
      "acme.example": {
        MX: [
          { exchange: "backup.mimecast.com", priority: 20 },
          { exchange: "self-hosted.acme.example", priority: 5 },
          { exchange: "acme-example.mail.protection.outlook.com", priority: 10 },
        ],
      },
    });

    expect((await lookupMailDns("acme.example", resolver)).mailProvider).toBe("Microsoft 365");
  });

  it("answers empty fields for a domain without mail records, and for one that does not exist", async () => {
    dns.setZone({ "quiet.example": { A: ["192.0.2.1"] } });
    const empty = {
      mx: [],
      mailProvider: null,
      spf: { record: null, includes: [] },
      dmarc: { record: null, policy: null },
      txt: [],
    };

    expect(await lookupMailDns("quiet.example", resolver)).toEqual(empty);
    expect(await lookupMailDns("nowhere.example", resolver)).toEqual(empty);
  });

  it("ignores TXT records that only look like SPF or DMARC and reads an unknown policy as null", async () => {
    dns.setZone({
      "acme.example": { TXT: ["v=spf10 include:wrong.example", "spf v=spf1 include:wrong.example", "v=spf1 -all"] },
      "_dmarc.acme.example": { TXT: ["something else", "v=DMARC1; p=monitor"] },
    });

    const mail = await lookupMailDns("acme.example", resolver);

    expect(mail.spf).toEqual({ record: "v=spf1 -all", includes: [] });
    expect(mail.dmarc).toEqual({ record: "v=DMARC1; p=monitor", policy: null });
  });

  it("passes on a DNS failure instead of answering empty", async () => {
    const unreachable = createDnsResolver({ servers: ["127.0.0.1:1"], timeoutMs: 100, tries: 1 });

    const error = await lookupMailDns("acme.example", unreachable).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).reason).toBe("dns");
  });
});
