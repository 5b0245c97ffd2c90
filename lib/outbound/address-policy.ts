import { isIPv4, isIPv6 } from "node:net";

/*
 * Which IP addresses an outbound request may connect to. Anything that is not ordinary public unicast is refused:
 * private and shared ranges, loopback, link-local (cloud metadata lives at 169.254.169.254 and fd00:ec2::254),
 * documentation, benchmarking, multicast and reserved space. IPv6 forms that carry an IPv4 address inside (mapped,
 * compatible, NAT64, 6to4) are judged by that IPv4 address, so `::ffff:127.0.0.1` is loopback, not "some IPv6".
 */

/** "loopback" is split out because tests may allow it; "blocked" is never connected to. */
export type AddressClass = "public" | "loopback" | "blocked";

type Range = readonly [base: string, prefix: number];

// IANA IPv4 Special-Purpose Address Registry entries that are not globally reachable (plus 224/4 multicast).
const BLOCKED_V4: readonly Range[] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // TEST-NET-1
  ["192.88.99.0", 24], // deprecated 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // TEST-NET-2
  ["203.0.113.0", 24], // TEST-NET-3
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

// Inside 2000::/3 (the only IPv6 space assigned as global unicast), the parts that are not reachable hosts.
const BLOCKED_V6_GLOBAL: readonly Range[] = [
  ["2001::", 32], // Teredo: the real endpoint hides behind a relay
  ["2001:2::", 48], // benchmarking
  ["2001:10::", 28], // ORCHID
  ["2001:20::", 28], // ORCHIDv2
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation (RFC 9637)
];

const V4_LOOPBACK: Range = ["127.0.0.0", 8];

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
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  if (isIPv4(bare)) return classifyV4(parseV4(bare));
  // A zone id (fe80::1%eth0) only exists for link-local scopes.
  if (bare.includes("%") || !isIPv6(bare)) return "blocked";
  return classifyV6(parseV6(bare));
}

function classifyV4(address: number): AddressClass {
  if (inV4(address, V4_LOOPBACK)) return "loopback";
  return BLOCKED_V4.some((range) => inV4(address, range)) ? "blocked" : "public";
}

function classifyV6(words: number[]): AddressClass {
  const embeddedV4 = ((words[6]! << 16) | words[7]!) >>> 0;
  const zeroUpTo = (count: number) => words.slice(0, count).every((word) => word === 0);

  if (zeroUpTo(7) && words[7] === 1) return "loopback"; // ::1
  if (zeroUpTo(8)) return "blocked"; // ::
  // ::ffff:a.b.c.d (mapped) reaches the IPv4 host directly, so it keeps the IPv4 class (loopback included).
  if (zeroUpTo(5) && words[5] === 0xffff) return classifyV4(embeddedV4);
  // ::a.b.c.d (deprecated IPv4-compatible).
  if (zeroUpTo(6)) return classifyV4(embeddedV4);
  // NAT64 64:ff9b::/96 goes through a translator to the embedded IPv4 host; a loopback one is not ours, so blocked.
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((word) => word === 0)) {
    return classifyV4(embeddedV4) === "public" ? "public" : "blocked";
  }
  // 6to4 2002:AABB:CCDD::/48 embeds the IPv4 address in words 1–2.
  if (words[0] === 0x2002) {
    return classifyV4(((words[1]! << 16) | words[2]!) >>> 0) === "public" ? "public" : "blocked";
  }
  // Outside 2000::/3 everything is special: ::/8, 64:ff9b:1::/48, 100::/64 discard, fc00::/7 unique local
  // (fd00:ec2::254 metadata), fe80::/10 link-local, fec0::/10 site-local, ff00::/8 multicast.
  if ((words[0]! & 0xe000) !== 0x2000) return "blocked";
  return BLOCKED_V6_GLOBAL.some((range) => inV6(words, range)) ? "blocked" : "public";
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
