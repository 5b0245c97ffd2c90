import { readFile, stat } from "node:fs/promises";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

/*
 * Handmade company websites served over real HTTP, chosen by the Host header, for crawler and extraction tests. Point
 * an outbound client at it with a resolver that maps every name to 127.0.0.1 and `portOverrides.http` = `port`; URLs
 * then stay "http://acme.example/…" and the Host header stays port-less. Every company, person, address and number is
 * fictional: domains are under the reserved `.example` TLD (the API refuses `.test`), phone numbers in the 555-0100..0199 range.
 *
 * - acme.example: a logistics analytics SaaS on WordPress (team, contact, imprint, press via the sitemap, a robots.txt
 *   that forbids /private/, and redirects: /about-us/ → /about/, /careers/ → careers.acme.example, /status and /newsroom/
 *   → a cloud metadata address).
 * - rival.example: a competitor with overlapping keywords, {f}{last} addresses and a sitemap index.
 * - other.example: a bakery without any email address. blocked.example: robots.txt disallows everything.
 */

const SITES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "company-sites");

/** The SSRF bait: a link-local cloud metadata endpoint no crawler may ever request. */
export const METADATA_URL = "http://169.254.169.254/latest/meta-data/";

/** Response headers per host, as the real stacks would send them (technology detectors read these). */
export const SITE_HEADERS: Readonly<Record<string, Record<string, string>>> = {
  "acme.example": {
    server: "nginx",
    "x-powered-by": "PHP/8.2.12",
    "set-cookie": "wp-settings-time-1=1735689600; path=/; HttpOnly",
    link: '<http://acme.example/wp-json/>; rel="https://api.w.org/"',
  },
  "careers.acme.example": { server: "nginx" },
  "rival.example": {
    server: "Apache/2.4.58 (Ubuntu)",
    "x-powered-by": "PHP/8.1.27",
    link: '<http://rival.example/wp-json/>; rel="https://api.w.org/"',
  },
  "other.example": { server: "Caddy" },
  "blocked.example": { server: "nginx" },
};

/** Redirects per host and path (paths as requested, trailing slash included). */
export const SITE_REDIRECTS: Readonly<Record<string, Record<string, { status: number; location: string }>>> = {
  "acme.example": {
    "/about-us/": { status: 301, location: "/about/" },
    "/careers/": { status: 302, location: "http://careers.acme.example/" },
    "/status": { status: 302, location: METADATA_URL },
    "/newsroom/": { status: 302, location: METADATA_URL },
  },
};

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

/** A fixture file's text, for extraction tests that need no server: `readCompanySiteFile("acme.example", "team.html")`. */
export function readCompanySiteFile(host: string, file: string): Promise<string> {
  return readFile(path.join(SITES_DIR, host, file), "utf8");
}

/** "/" → index.html, "/contact/" → contact.html, "/legal/privacy/" → legal/privacy.html, "/robots.txt" as is. */
async function fileFor(host: string, pathname: string): Promise<string | null> {
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
  const requests: CompanySitesRequest[] = [];
  const server = createServer((request, response) => {
    const host = (request.headers.host ?? "").toLowerCase().replace(/:\d+$/, "");
    const url = new URL(request.url ?? "/", "http://fake.invalid");
    requests.push({ host, path: request.url ?? "/" });
    const siteHeaders = SITE_HEADERS[host] ?? {};

    void (async () => {
      const redirect = SITE_REDIRECTS[host]?.[url.pathname];
      if (redirect !== undefined)
        return send(response, redirect.status, { ...siteHeaders, location: redirect.location }, "");
      const file = (await isSite(host)) ? await fileFor(host, url.pathname) : null;
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
