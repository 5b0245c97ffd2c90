import { Resolver } from "node:dns/promises";
import { type HostResolver, OutboundError } from "@/lib/outbound/types";

/*
 * DNS through c-ares (`dns/promises` Resolver), never the system's getaddrinfo: it takes explicit servers (tests run a
 * fake one on 127.0.0.1:PORT), honours a timeout, and can be cancelled. "No such name" and "no record of that type"
 * are answers, returned as empty lists; a server that fails or does not answer is an error ("dns").
 */

export interface MxRecord {
  exchange: string;
  priority: number;
}

export interface DnsResolver {
  /** A then AAAA addresses of `hostname`; empty when it has none. */
  resolveHost: HostResolver;
  resolveMx(name: string, signal?: AbortSignal): Promise<MxRecord[]>;
  /** One string per TXT record, its character-strings joined (SPF and DMARC records are often split). */
  resolveTxt(name: string, signal?: AbortSignal): Promise<string[]>;
}

export interface DnsResolverOptions {
  /** "IP" or "IP:PORT" entries; default the system's configured servers. */
  servers?: string[];
  /** Per try, in milliseconds. Default 2000. */
  timeoutMs?: number;
  /** Tries per server. Default 2. */
  tries?: number;
}

// c-ares codes meaning the name or record does not exist, which is an answer rather than a failure.
const EMPTY_ANSWER_CODES = new Set(["ENOTFOUND", "ENODATA"]);

export function createDnsResolver(options: DnsResolverOptions = {}): DnsResolver {
  const timeout = options.timeoutMs ?? 2000;
  const tries = options.tries ?? 2;

  // One Resolver per lookup: `cancel()` cancels everything a Resolver has in flight, so sharing one would let one
  // caller's abort fail another caller's lookup.
  async function query<T>(
    name: string,
    signal: AbortSignal | undefined,
    run: (resolver: Resolver) => Promise<T>,
    empty: T,
  ): Promise<T> {
    if (signal?.aborted) throw new OutboundError("aborted", "the DNS lookup was aborted");
    const resolver = new Resolver({ timeout, tries });
    if (options.servers !== undefined) resolver.setServers(options.servers);
    const onAbort = () => resolver.cancel();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      return await run(resolver);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "";
      if (EMPTY_ANSWER_CODES.has(code)) return empty;
      if (signal?.aborted) throw new OutboundError("aborted", "the DNS lookup was aborted");
      throw new OutboundError("dns", `DNS lookup for ${name} failed (${code || "unknown error"})`);
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }

  return {
    async resolveHost(hostname, signal) {
      const [v4, v6] = await Promise.all([
        query(hostname, signal, (resolver) => resolver.resolve4(hostname), []),
        query(hostname, signal, (resolver) => resolver.resolve6(hostname), []),
      ]);
      // IPv4 first: hosts without IPv6 routing are common, and the client tries addresses in this order.
      return [...v4, ...v6];
    },
    resolveMx(name, signal) {
      // Only the two fields: Node 24 adds `type: "MX"` to each record, which callers must not come to depend on.
      return query(
        name,
        signal,
        async (resolver) => (await resolver.resolveMx(name)).map(({ exchange, priority }) => ({ exchange, priority })),
        [],
      );
    },
    async resolveTxt(name, signal) {
      const records = await query(name, signal, (resolver) => resolver.resolveTxt(name), []);
      return records.map((chunks) => chunks.join(""));
    },
  };
}
