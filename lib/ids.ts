import { randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `length` characters drawn uniformly from base62 (rejection sampling keeps the distribution flat). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 62 * 4: bytes at or above it would bias the first characters.
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

function encodeBase62(value: bigint, width: number): string {
  let out = "";
  let rest = value;
  while (rest > 0n) {
    out = BASE62[Number(rest % 62n)] + out;
    rest /= 62n;
  }
  return out.padStart(width, "0");
}

/**
 * A prefixed, time-sortable id such as `ws_1Ov3kZ…`: 48 bits of milliseconds then 128 random bits,
 * so ids sort by creation time in logs and stay unguessable (DESIGN §4 asks ≥128 random bits for endpoints).
 */
export function createId(prefix: string): string {
  const time = BigInt(Date.now()) << 128n;
  const random = BigInt(`0x${randomBytes(16).toString("hex")}`);
  return `${prefix}_${encodeBase62(time | random, 30)}`;
}
