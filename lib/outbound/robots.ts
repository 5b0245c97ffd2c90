import robotsParser from "robots-parser";
import {
  OutboundError,
  OutboundRefusedError,
  type OutboundRequest,
  type OutboundResponse,
  type RobotsRules,
} from "@/lib/outbound/types";

export type { RobotsRules };

/*
 * robots.txt per origin, read the way RFC 9309 says: a 2xx body is parsed and matched for our product token; any other
 * 4xx means "no rules", so everything is allowed; a 5xx, a 429 or no answer at all means the site may be struggling, so
 * everything is disallowed until we look again. Answers are cached per origin (bounded, an hour for real files, a few
 * minutes for failures), and concurrent callers for one origin share one fetch.
 */

/** The product token sites name in `User-agent:` lines to address us. */
export const ROBOTS_PRODUCT_TOKEN = "SignalboxBot";

/** RFC 9309 asks crawlers to parse at least 500 KiB. */
const ROBOTS_MAX_BYTES = 512 * 1024;
const ROBOTS_TIMEOUT_MS = 5_000;
const TTL_MS = 60 * 60 * 1000;
/** Failures are retried sooner: a disallow-all caused by one bad minute should not block a site for an hour. */
const FAILURE_TTL_MS = 5 * 60 * 1000;
const MAX_ORIGINS = 1_000;

export interface RobotsCache {
  /** The rules of `origin` ("https://example.com"), fetched or cached. */
  robotsFor(origin: string, signal?: AbortSignal): Promise<RobotsRules>;
}

/** How robots.txt is fetched: the outbound client itself, with robots checks off. */
export type RobotsFetch = (url: string, init: OutboundRequest) => Promise<OutboundResponse>;

export interface RobotsCacheOptions {
  fetch: RobotsFetch;
  productToken?: string;
  ttlMs?: number;
  failureTtlMs?: number;
  maxOrigins?: number;
  now?: () => number;
}

interface Entry {
  rules: Promise<RobotsRules>;
  expiresAt: number;
}

const ALLOW_ALL: RobotsRules = { isAllowed: () => true, sitemaps: [] };
const DISALLOW_ALL: RobotsRules = { isAllowed: () => false, sitemaps: [] };

export function createRobotsCache(options: RobotsCacheOptions): RobotsCache {
  const token = options.productToken ?? ROBOTS_PRODUCT_TOKEN;
  const ttl = options.ttlMs ?? TTL_MS;
  const failureTtl = options.failureTtlMs ?? FAILURE_TTL_MS;
  const maxOrigins = options.maxOrigins ?? MAX_ORIGINS;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  function store(origin: string, entry: Entry): void {
    entries.delete(origin);
    entries.set(origin, entry);
    // Maps iterate in insertion order, so the first key is the least recently stored.
    while (entries.size > maxOrigins) entries.delete(entries.keys().next().value!);
  }

  async function load(origin: string): Promise<{ rules: RobotsRules; ttl: number }> {
    const url = `${origin}/robots.txt`;
    let response: OutboundResponse;
    try {
      response = await options.fetch(url, {
        robots: false,
        maxBytes: ROBOTS_MAX_BYTES,
        overflow: "truncate",
        timeoutMs: ROBOTS_TIMEOUT_MS,
      });
    } catch (error) {
      // A refused address is not "unreachable": the caller would be refused anyway, and should hear why.
      if (error instanceof OutboundRefusedError && error.reason !== "too_many_redirects") throw error;
      if (error instanceof OutboundRefusedError || error instanceof OutboundError)
        return { rules: DISALLOW_ALL, ttl: failureTtl };
      throw error;
    }
    const { status } = response;
    if (status >= 200 && status < 300) {
      // Parsed as the origin's own file even when it was redirected elsewhere: the rules are for this origin's URLs.
      const robot = robotsParser(url, response.text());
      return {
        rules: {
          isAllowed: (target) => robot.isAllowed(target, token) !== false,
          sitemaps: robot.getSitemaps(),
        },
        ttl,
      };
    }
    if (status === 429 || status >= 500) return { rules: DISALLOW_ALL, ttl: failureTtl };
    if (status >= 400) return { rules: ALLOW_ALL, ttl };
    // A 3xx left over (too many redirects or no Location) is an unreachable file.
    return { rules: DISALLOW_ALL, ttl: failureTtl };
  }

  return {
    async robotsFor(origin, signal) {
      const key = new URL(origin).origin;
      const cached = entries.get(key);
      let rules: Promise<RobotsRules>;
      if (cached !== undefined && cached.expiresAt > now()) {
        rules = cached.rules;
      } else {
        // The fetch is shared, so it does not take any one caller's signal; each caller stops waiting on its own.
        const loading = load(key);
        rules = loading.then((loaded) => loaded.rules);
        store(key, { rules, expiresAt: Number.POSITIVE_INFINITY });
        loading.then(
          (loaded) => {
            if (entries.get(key)?.rules === rules) store(key, { rules, expiresAt: now() + loaded.ttl });
          },
          () => {
            if (entries.get(key)?.rules === rules) entries.delete(key);
          },
        );
      }
      return untilAborted(rules, signal);
    },
  };
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
