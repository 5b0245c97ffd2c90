import { isIPv4, isIPv6 } from "node:net";

/*
 * Which IP addresses an outbound request may connect to. Anything that is not ordinary public unicast is refused:
 * private and shared ranges, loopback, link-local (cloud metadata lives at 169.254.169.254 and fd00:ec2::254),
 * documentation, benchmarking, multicast and reserved space. IPv6 forms that carry an IPv4 address inside (mapped,
 * compatible, NAT64, 6to4) are judged by that IPv4 address, so `::ffff:127.0.0.1` is loopback, not "some IPv6".
 * Forwarding lets the operator open private and loopback space (`forwardingAddressCheck`); link-local and metadata
 * addresses stay shut unless a range the operator lists lies inside them.
 */

/** "loopback" is split out because tests may allow it; "blocked" is never connected to. */
export type AddressClass = "public" | "loopback" | "blocked";

/**
 * The finer kind forwarding's operator setting tells apart: "private" (RFC 1918, carrier-grade NAT, unique local
 * IPv6), "link_local" (link-local and cloud metadata addresses) and "reserved" (everything else that is not public).
 */
export type AddressKind = "public" | "loopback" | "private" | "link_local" | "reserved";

type Range = readonly [base: string, prefix: number];

/** Link-local ranges and the metadata addresses that sit inside other ranges; checked before those ranges. */
const LINK_LOCAL: readonly Range[] = [
  ["169.254.0.0", 16], // link-local; metadata of AWS, GCP, Azure, Oracle at 169.254.169.254
  ["100.100.100.200", 32], // Alibaba Cloud metadata, inside 100.64/10
  ["fe80::", 10], // IPv6 link-local
  ["fd00:ec2::254", 128], // AWS IPv6 metadata, inside fc00::/7
];

const PRIVATE_V4: readonly Range[] = [
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
];

// The rest of the IANA IPv4 Special-Purpose Address Registry that is not globally reachable (plus 224/4 multicast).
const RESERVED_V4: readonly Range[] = [
  ["0.0.0.0", 8], // "this network"
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // TEST-NET-1
  ["192.88.99.0", 24], // deprecated 6to4 relay anycast
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // TEST-NET-2
  ["203.0.113.0", 24], // TEST-NET-3
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

// Inside 2000::/3 (the only IPv6 space assigned as global unicast), the parts that are not reachable hosts.
const RESERVED_V6_GLOBAL: readonly Range[] = [
  ["2001::", 32], // Teredo: the real endpoint hides behind a relay
  ["2001:2::", 48], // benchmarking
  ["2001:10::", 28], // ORCHID
  ["2001:20::", 28], // ORCHIDv2
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation (RFC 9637)
];

const V4_LOOPBACK: Range = ["127.0.0.0", 8];
const V6_UNIQUE_LOCAL: Range = ["fc00::", 7];

/** True when `ip` is an IPv4 or IPv6 literal we would connect to on the public internet. */
export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip) === "public";
}

/** Whether a connection to `ip` is allowed; `allowLoopback` (tests only) adds 127/8 and ::1, nothing else. */
export function isAllowedAddress(ip: string, options: { allowLoopback?: boolean } = {}): boolean {
  const kind = classifyAddress(ip);
  return kind === "public" || (kind === "loopback" && options.allowLoopback === true);
}

/** Classifies an IP literal; anything that is not a valid literal is "blocked". */
export function classifyAddress(ip: string): AddressClass {
  const kind = addressKind(ip);
  return kind === "public" || kind === "loopback" ? kind : "blocked";
}

/** The kind of an IP literal; anything that is not a valid literal is "reserved". */
export function addressKind(ip: string): AddressKind {
  const bare = unbracketed(ip);
  if (isIPv4(bare)) return kindV4(parseV4(bare));
  // A zone id (fe80::1%eth0) only exists for link-local scopes.
  if (bare.includes("%")) return "link_local";
  if (!isIPv6(bare)) return "reserved";
  return kindV6(parseV6(bare));
}

/** What the operator's FORWARD_ALLOW_PRIVATE opens beyond public addresses (lib/env.ts parses it). */
export interface ForwardingAllowance {
  /** Private and loopback addresses (`true`): not link-local or metadata ones. */
  private: boolean;
  /** Listed ranges, as [base, prefix length]. */
  ranges: readonly Range[];
}

/**
 * The address check for forwarding destinations: public addresses, plus what `allowance` opens. A link-local or
 * metadata address is opened only by a listed range that lies inside a link-local or metadata range
 * (`169.254.169.254/32`, `fe80::/64`), never by a broad one that merely contains it (`0.0.0.0/0`), so opening
 * "everything" by accident still keeps the cloud's credentials out of reach. IPv4-mapped IPv6 addresses are matched
 * as their IPv4 address.
 */
export function forwardingAddressCheck(allowance: ForwardingAllowance): (ip: string) => boolean {
  const ranges = allowance.ranges.map((range) => ({ range, opensLinkLocal: liesInLinkLocal(range) }));
  return (ip) => {
    const address = mappedV4(unbracketed(ip)) ?? unbracketed(ip);
    const kind = addressKind(address);
    if (kind === "public") return true;
    if (allowance.private && (kind === "private" || kind === "loopback")) return true;
    return ranges.some(
      ({ range, opensLinkLocal }) => (kind !== "link_local" || opensLinkLocal) && inRange(address, range),
    );
  };
}

function unbracketed(ip: string): string {
  return ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
}

/** `a.b.c.d` for an IPv4-mapped IPv6 literal (`::ffff:a.b.c.d`, `::ffff:xxxx:xxxx`), else undefined. */
function mappedV4(ip: string): string | undefined {
  if (!isIPv6(ip) || ip.includes("%")) return undefined;
  const words = parseV6(ip);
  if (!words.slice(0, 5).every((word) => word === 0) || words[5] !== 0xffff) return undefined;
  return [words[6]! >>> 8, words[6]! & 0xff, words[7]! >>> 8, words[7]! & 0xff].join(".");
}

/** Whether every address of `range` is link-local or metadata: its base is, and it is no wider than that range. */
function liesInLinkLocal([base, prefix]: Range): boolean {
  return LINK_LOCAL.some((linkLocal) => prefix >= linkLocal[1] && inRange(base, linkLocal));
}

/** Whether the IP literal `ip` lies in `range`; families must match. */
function inRange(ip: string, range: Range): boolean {
  if (isIPv4(ip)) return isIPv4(range[0]) && inV4(parseV4(ip), range);
  return isIPv6(ip) && isIPv6(range[0]) && inV6(parseV6(ip), range);
}

function kindV4(address: number): AddressKind {
  if (inV4(address, V4_LOOPBACK)) return "loopback";
  if (LINK_LOCAL.some((range) => isIPv4(range[0]) && inV4(address, range))) return "link_local";
  if (PRIVATE_V4.some((range) => inV4(address, range))) return "private";
  return RESERVED_V4.some((range) => inV4(address, range)) ? "reserved" : "public";
}

function kindV6(words: number[]): AddressKind {
  const embeddedV4 = ((words[6]! << 16) | words[7]!) >>> 0;
  const zeroUpTo = (count: number) => words.slice(0, count).every((word) => word === 0);

  if (zeroUpTo(7) && words[7] === 1) return "loopback"; // ::1
  if (zeroUpTo(8)) return "reserved"; // ::
  // ::ffff:a.b.c.d (mapped) reaches the IPv4 host directly, so it keeps the IPv4 kind (loopback included).
  if (zeroUpTo(5) && words[5] === 0xffff) return kindV4(embeddedV4);
  // ::a.b.c.d (deprecated IPv4-compatible).
  if (zeroUpTo(6)) return kindV4(embeddedV4);
  // NAT64 64:ff9b::/96 goes through a translator to the embedded IPv4 host, and 6to4 2002:AABB:CCDD::/48 embeds it in
  // words 1–2: a public host stays public, link-local stays link-local (the translator's metadata service), and the
  // rest is not ours to reach (the translator's loopback is not our loopback), so reserved.
  const translated =
    words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((word) => word === 0)
      ? kindV4(embeddedV4)
      : words[0] === 0x2002
        ? kindV4(((words[1]! << 16) | words[2]!) >>> 0)
        : undefined;
  if (translated !== undefined) return translated === "public" || translated === "link_local" ? translated : "reserved";
  if (LINK_LOCAL.some((range) => isIPv6(range[0]) && inV6(words, range))) return "link_local";
  if (inV6(words, V6_UNIQUE_LOCAL)) return "private";
  // Outside 2000::/3 everything else is special: ::/8, 64:ff9b:1::/48, 100::/64 discard, fec0::/10 site-local,
  // ff00::/8 multicast.
  if ((words[0]! & 0xe000) !== 0x2000) return "reserved";
  return RESERVED_V6_GLOBAL.some((range) => inV6(words, range)) ? "reserved" : "public";
}

function inV4(address: number, [base, prefix]: Range): boolean {
  const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
  return (address & mask) >>> 0 === (parseV4(base) & mask) >>> 0;
}

function inV6(words: number[], [base, prefix]: Range): boolean {
  const baseWords = parseV6(base);
  for (let index = 0, left = prefix; left > 0; index++, left -= 16) {
    const mask = left >= 16 ? 0xffff : (0xffff << (16 - left)) & 0xffff;
    if ((words[index]! & mask) !== (baseWords[index]! & mask)) return false;
  }
  return true;
}

/** A dotted-quad IPv4 literal (already validated) as an unsigned 32-bit number. */
function parseV4(ip: string): number {
  return ip.split(".").reduce((value, part) => ((value << 8) | Number(part)) >>> 0, 0);
}

/** An IPv6 literal (already validated, no zone) as its eight 16-bit words. */
function parseV6(ip: string): number[] {
  let text = ip.toLowerCase();
  const tail: number[] = [];
  // A trailing dotted IPv4 part (::ffff:1.2.3.4) stands for the last two words.
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    const v4 = parseV4(text.slice(lastColon + 1));
    tail.push(v4 >>> 16, v4 & 0xffff);
    const prefix = text.slice(0, lastColon + 1);
    text = prefix.endsWith("::") ? prefix : prefix.slice(0, -1);
  }
  const parseWords = (part: string) => (part === "" ? [] : part.split(":").map((word) => parseInt(word, 16)));
  const [head, rest] = text.split("::") as [string, string | undefined];
  const headWords = parseWords(head);
  const restWords = rest === undefined ? [] : parseWords(rest);
  const missing = 8 - tail.length - headWords.length - restWords.length;
  return [...headWords, ...new Array<number>(rest === undefined ? 0 : missing).fill(0), ...restWords, ...tail];
}
