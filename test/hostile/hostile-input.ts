import fc from "fast-check";

/*
 * Generators of hostile input shared by the hostile test files: strings with NUL, lone surrogates, bidi controls,
 * emoji and very long runs; numbers at the edges of IEEE 754 and of 64-bit integers; JSON values nested deep; ids
 * made for path traversal; bytes that are not UTF-8. Each generator mixes hand-picked nasties with random ones, so
 * that a few hundred runs reliably reach both.
 */

/** One UTF-16 code unit from the surrogate range: alone, it is not well-formed Unicode. */
export const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));

const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "x\udbffy",
  "\ud83d", // the first half of an emoji alone
  "\u202eevil\u202c", // right-to-left override
  "\u200f\u200e\u2066\u2069", // bidi marks and isolates
  "\ufeff", // byte order mark
  "\u200b\u2060", // zero-width space, word joiner
  "\uffff\ufffe",
  "👨‍👩‍👧‍👦🏳️‍🌈🙃",
  "e\u0301\u0301\u0301\u0301",
  "Z̴̡̛͓͎̈́a̵̧͉̍l̶̡̛g̷̱̈́o̴",
  "日本語テキスト",
  "\r\n\t\u000b\u000c\u001b[31m",
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "%00",
  "%2e%2e%2f%2e%2e%2f",
  "' OR 1=1 --",
  '"; DROP TABLE webhook_deliveries; --',
  "<script>alert(1)</script>",
  "${jndi:ldap://x}",
  "{{7*7}}",
  "__proto__",
  "constructor",
  "NaN",
  "Infinity",
  "-0",
  "1e308",
  "true",
  "null",
  "9223372036854775808",
  "a".repeat(10_000),
  "𝕏".repeat(3_000),
  "\u0000".repeat(1_000),
];

/** Any string a client could put in JSON: random code points, lone surrogates, NULs and hand-picked nasties. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc.string({
      unit: fc.oneof(fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }), loneSurrogate, fc.constant("\u0000")),
      maxLength: 30,
    }),
  },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom("a", "é", "\u0000", "🙃", "\ud800"), fc.integer({ min: 100, max: 50_000 }))
      .map(([unit, count]) => unit.repeat(count)),
  },
);

/** Numbers at the edges: ±0, the largest and smallest doubles, 2^53, 2^63, fractions, negatives. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    1,
    -1,
    0.5,
    1e308,
    -1e308,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    2 ** 53,
    2 ** 53 + 2,
    2 ** 63,
    -(2 ** 63),
    2 ** 31,
    -(2 ** 31),
    1e-320,
    100,
    101,
    1_000_001,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Number literals JSON.stringify cannot produce (they only arrive as text): overflow, long mantissas, odd forms. */
export const NUMBER_LITERALS = [
  "1e400",
  "-1e400",
  "1e-400",
  "-0",
  "-0.0",
  "0e0",
  "123456789012345678901234567890",
  "0.1000000000000000055511151231257827",
  `1${"0".repeat(400)}`,
  `0.${"0".repeat(400)}1`,
  "9223372036854775807",
  "18446744073709551616",
];

/** A JSON value built from hostile leaves. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(hostileString, tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** `[[[…]]]` or `{"a":{"a":…}}` nested `depth` levels, as text. */
export function nestedJsonText(depth: number, kind: "array" | "object"): string {
  return kind === "array"
    ? `${"[".repeat(depth)}${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

/** JSON text (not a value: some of these have no JS value that JSON.stringify would write back). */
export const hostileJsonText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: hostileJson.map((value) => JSON.stringify(value) ?? "null") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...NUMBER_LITERALS).map((literal) => `{"n":${literal},"list":[${literal}]}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 100, max: 20_000 }), fc.constantFrom("array" as const, "object" as const))
      .map(([depth, kind]) => nestedJsonText(depth, kind)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{"a":"\\u0000"}',
      '{"\\u0000":1}',
      '{"a":"\\ud800"}',
      '["\\udc00\\ud800"]',
      '{"a":1,"a":2}',
      '{"__proto__":{"polluted":true}}',
      "\ufeff{}",
      "{}garbage",
      "[1,]",
      "{'a':1}",
      "NaN",
      "",
    ),
  },
);

/** Sequences that are not UTF-8: lone continuation bytes, overlongs, surrogates encoded in UTF-8, truncations, 0xff. */
export const INVALID_UTF8: readonly number[][] = [
  [0x80],
  [0xbf],
  [0xc0, 0xaf], // overlong '/'
  [0xe0, 0x80, 0xaf], // overlong '/'
  [0xed, 0xa0, 0x80], // a surrogate, UTF-8 encoded
  [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
  [0xc3], // truncated
  [0xe2, 0x82], // truncated
  [0xfe],
  [0xff],
  [0x00],
];

/** Bytes that are partly valid text and partly not UTF-8 at all. */
export const hostileBytes: fc.Arbitrary<Uint8Array> = fc
  .array(
    fc.oneof(
      fc.constantFrom(...INVALID_UTF8),
      fc.uint8Array({ maxLength: 64 }).map((bytes) => [...bytes]),
      hostileString.map((text) => [...Buffer.from(text.slice(0, 200), "utf8")]),
    ),
    { maxLength: 12 },
  )
  .map((parts) => Uint8Array.from(parts.flat()));

/** Percent-encodes every byte of the UTF-8 form, except unreserved characters. Never throws on lone surrogates. */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
}

/** Path segments for an id parameter, as written on the wire: traversal, encoded NUL, unicode, bad escapes, long. */
export const hostileIdSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "..",
    "%2e%2e",
    "..%2f..%2f..%2fetc%2fpasswd",
    "%2e%2e%2f%2e%2e%2f",
    "..%5c..%5c",
    "%00",
    "we_abc%00",
    "%C0%AE%C0%AE",
    "%ED%A0%80",
    "%FF%FE",
    "%",
    "%zz",
    "%E0%A4",
    "%u002e",
    "we_",
    "we_%E2%80%AE",
    "00000000-0000-0000-0000-000000000000",
    "00000000-0000-0000-0000-00000000000G",
    "ffffffff-ffff-ffff-ffff-ffffffffffff%00",
    "\u00e9\u00ff", // written as two latin1 bytes, not UTF-8
    "%F0%9F%99%83",
    "a".repeat(101),
    "b".repeat(5_000),
    "%252e%252e",
    "null",
    "undefined",
    "__proto__",
    "constructor",
  ),
  hostileString.filter((text) => text.length > 0 && text.length < 2_000).map(percentEncode),
);
