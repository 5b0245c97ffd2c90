import { readdir, readFile, stat } from "node:fs/promises";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/*
 * Handmade company websites served over real HTTP, chosen by the Host header, for crawler and extraction tests. Point
 * an outbound client at it with a resolver that maps every name to 127.0.0.1 and `portOverrides.http` = `port`; URLs
 * then stay "http://acme.example/…" and the Host header stays port-less. Every company, person, address and number is
 * fictional: domains are under the reserved `.example` TLD (the API refuses `.test`), phone numbers in the 555-0100..0199 range.
 *
 * One directory per host under company-sites/, and beside it an optional `<host>.site.json` with the response headers
 * the host's real stack would send and its redirects (see `siteConfigSchema`).
 *
 * - acme.example: a logistics analytics SaaS on WordPress (team, contact, imprint, press via the sitemap, a robots.txt
 *   that forbids /private/, and redirects: /about-us/ → /about/, /careers/ → careers.acme.example, /status and /newsroom/
 *   → a cloud metadata address, 169.254.169.254, that no crawler may ever request).
 * - rival.example: a competitor with overlapping keywords, {f}{last} addresses and a sitemap index.
 * - other.example: a bakery without any email address. blocked.example: robots.txt disallows everything.
 * - The other hosts are the enrichment quality corpus: each has a labelled truth in test/quality/truth/<host>.json.
 */

const SITES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "company-sites");

/** What a site's server adds to its files: `<host>.site.json` beside the host's directory (not served). */
const siteConfigSchema = z.strictObject({
  /** Response headers the real stack would send (technology detectors read these). */
  headers: z.record(z.string(), z.string()).default({}),
  /** Redirects by path as requested (trailing slash included). */
  redirects: z
    .record(z.string(), z.strictObject({ status: z.number().int().min(300).max(399), location: z.string() }))
    .default({}),
});

type SiteConfig = z.infer<typeof siteConfigSchema>;

const SIDECAR_SUFFIX = ".site.json";

/** Every host's sidecar, read once when the server starts; a malformed one fails the start, naming the file. */
async function readSiteConfigs(): Promise<Map<string, SiteConfig>> {
  const sidecars = (await readdir(SITES_DIR)).filter((name) => name.endsWith(SIDECAR_SUFFIX));
  const configs = new Map<string, SiteConfig>();
  for (const name of sidecars) {
    const text = await readFile(path.join(SITES_DIR, name), "utf8");
    try {
      configs.set(name.slice(0, -SIDECAR_SUFFIX.length), siteConfigSchema.parse(JSON.parse(text)));
    } catch (error) {
      const reason = error instanceof z.ZodError ? z.prettifyError(error) : String(error);
      throw new Error(`test/fakes/company-sites/${name}: ${reason}`, { cause: error });
    }
  }
  return configs;
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
};

export interface CompanySitesRequest {
  /** The Host header without a port. */
  host: string;
  /** Path and query as requested. */
  path: string;
}

export interface CompanySites {
  port: number;
  /** Every request received, oldest first. */
  requests: CompanySitesRequest[];
  close(): Promise<void>;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** A host we have a directory for; the pattern keeps "..", slashes and the like out of the path. */
async function isSite(host: string): Promise<boolean> {
  if (!/^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/.test(host)) return false;
  try {
    return (await stat(path.join(SITES_DIR, host))).isDirectory();
  } catch {
    return false;
  }
}

/** Every host the fake serves (one directory each), sorted. */
export async function companySiteHosts(): Promise<string[]> {
  const entries = await readdir(SITES_DIR, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** A fixture file's text, for extraction tests that need no server: `readCompanySiteFile("acme.example", "team.html")`. */
export function readCompanySiteFile(host: string, file: string): Promise<string> {
  return readFile(path.join(SITES_DIR, host, file), "utf8");
}

/**
 * The file the fake serves for a host's path, or null (404): "/" → index.html, "/contact/" → contact.html or
 * contact/index.html, "/legal/privacy/" → legal/privacy.html, "/robots.txt" as is.
 */
export async function companySiteFile(host: string, pathname: string): Promise<string | null> {
  if (!(await isSite(host))) return null;
  const siteDir = path.join(SITES_DIR, host);
  const relative = decodeURIComponent(pathname).replace(/^\/+|\/+$/g, "");
  const candidates =
    relative === "" ? ["index.html"] : [relative, `${relative}.html`, path.join(relative, "index.html")];
  for (const candidate of candidates) {
    const file = path.resolve(siteDir, candidate);
    if (!file.startsWith(`${siteDir}${path.sep}`)) return null;
    if (await isFile(file)) return file;
  }
  return null;
}

function send(response: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer) {
  response.writeHead(status, headers);
  response.end(body);
}

export async function startCompanySites(): Promise<CompanySites> {
  const configs = await readSiteConfigs();
  const requests: CompanySitesRequest[] = [];
  const server = createServer((request, response) => {
    const host = (request.headers.host ?? "").toLowerCase().replace(/:\d+$/, "");
    const url = new URL(request.url ?? "/", "http://fake.invalid");
    requests.push({ host, path: request.url ?? "/" });
    const config = configs.get(host);
    const siteHeaders = config?.headers ?? {};

    void (async () => {
      const redirect = config?.redirects[url.pathname];
      if (redirect !== undefined)
        return send(response, redirect.status, { ...siteHeaders, location: redirect.location }, "");
      const file = await companySiteFile(host, url.pathname);
      if (file === null)
        return send(
          response,
          404,
          { ...siteHeaders, "content-type": "text/html; charset=utf-8" },
          "<!DOCTYPE html><title>Not found</title><h1>Not found</h1>",
        );
      const body = await readFile(file);
      send(
        response,
        200,
        { ...siteHeaders, "content-type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream" },
        body,
      );
    })().catch(() => send(response, 500, { "content-type": "text/plain" }, "fixture error"));
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
