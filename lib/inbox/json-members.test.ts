import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonElement, jsonMembers, jsonRoot, jsonString, type JsonSpan } from "./json-members";

const text = (json: string) => Buffer.from(json, "utf8");

/** The members' values as text (or null for no object), for readable expectations. */
function members(json: string, keys: string[]) {
  const buffer = text(json);
  const root = jsonRoot(buffer);
  const found = root && jsonMembers(buffer, root, keys);
  return found && found.map((span) => span && buffer.toString("utf8", span.start, span.end));
}

describe("jsonMembers", () => {
  it("finds top-level members and steps over nested values whole", () => {
    expect(members('{"a":{"type":"inner"},"b":[1,{"type":"x"}],"type":"outer"}', ["type", "a", "b"])).toEqual([
      '"outer"',
      '{"type":"inner"}',
      '[1,{"type":"x"}]',
    ]);
    expect(members(' { "n" : -1.5e+3 , "t" : true , "z" : null } ', ["z", "n", "t"])).toEqual([
      "null",
      "-1.5e+3",
      "true",
    ]);
    expect(members("{}", ["a"])).toEqual([undefined]);
  });

  it("is not fooled by brackets, quotes and backslashes inside strings", () => {
    expect(members('{"a":"}]\\"{[","b":{"c":"\\\\"},"type":"x"}', ["type"])).toEqual(['"x"']);
    expect(members('{"a":"\\\\\\"}","type":"y"}', ["type"])).toEqual(['"y"']);
  });

  it("stops once the first name has a string, or every name is found", () => {
    // Past the string `type` the text is not read: the fault after it goes unseen.
    expect(members('{"type":"x","event":"e", oops', ["type", "event"])).toEqual(['"x"', undefined]);
    expect(members('{"event":"e","type":"x"', ["type", "event"])).toEqual(['"x"', '"e"']);
    // A `type` that is not a string reads on, for the later names.
    expect(members('{"type":1,"event":"e"}', ["type", "event"])).toEqual(["1", '"e"']);
    expect(members('{"type":1,"event":"e", oops', ["type", "event", "other"])).toBeNull();
  });

  it("steps over numbers of any length (found by a property: a cap of 400 characters made them faults)", () => {
    const long = `1${"0".repeat(500)}`;
    expect(members(`{"n":${long},"type":"x"}`, ["type", "n"])).toEqual(['"x"', long]);
    expect(members(`{"n":-0.${"5".repeat(500)}e-${"1".repeat(500)}}`, ["n"])).toEqual([
      `-0.${"5".repeat(500)}e-${"1".repeat(500)}`,
    ]);
  });

  it("takes the first of repeated names", () => {
    expect(members('{"type":"first","type":"second"}', ["type"])).toEqual(['"first"']);
  });

  it.each([
    ["an array", "[1]"],
    ["a bad scalar", '{"a":nul,"type":"x"}'],
    ["a leading zero", '{"a":01,"type":"x"}'],
    ["an unquoted key", '{a:1,"type":"x"}'],
    ["a missing comma", '{"a":1 "type":"x"}'],
    ["a trailing comma", '{"a":1,}'],
    ["an unclosed object", '{"a":{"b":1,"type":"x"}'],
    ["a key with a bad escape", '{"\\q":1,"type":"x"}'],
  ])("is null for %s before the member", (_name, json) => {
    expect(members(json, ["type"])).toBeNull();
  });
});

describe("jsonElement and jsonString", () => {
  const span = (buffer: Buffer): JsonSpan => jsonRoot(buffer)!;

  it("indexes arrays, stepping over nested elements", () => {
    const buffer = text('[ {"a":[1,2]} , "two" ,3 ]');
    const element = (index: number) => {
      const found = jsonElement(buffer, span(buffer), index);
      return found && buffer.toString("utf8", found.start, found.end);
    };
    expect([element(0), element(1), element(2), element(3)]).toEqual(['{"a":[1,2]}', '"two"', "3", null]);
    expect(jsonElement(text("[]"), span(text("[]")), 0)).toBeNull();
    expect(jsonElement(text('{"0":1}'), span(text('{"0":1}')), 0)).toBeNull();
  });

  it("decodes strings with escapes, and refuses what JSON does not allow", () => {
    const decode = (json: string) => jsonString(text(json), span(text(json)));
    expect(decode('"plain é"')).toBe("plain é");
    expect(decode('"\\u00e9\\n\\"q\\""')).toBe('é\n"q"');
    expect(decode('"tab\there"')).toBeNull(); // a raw control character
    expect(decode("17")).toBeNull();
  });
});

/**
 * Properties: generated JSON written with the variety senders use (any spacing, strings with escapes, keys spelled
 * with `\u` escapes, any unicode) must read as JSON.parse reads it, and anything at all must read without throwing.
 */
describe("json-members: properties", () => {
  /** Names queried: ordinary, non-ASCII, with quotes and backslashes, empty, and one that JSON.parse treats specially. */
  const NAMES = ["type", "event", "é😀", 'q"\\', "", "__proto__"];
  const whitespace = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r"), maxLength: 3 });
  const name = fc.oneof(fc.constantFrom(...NAMES), fc.string({ unit: "binary", maxLength: 6 }));
  /** A string's JSON text: as JSON.stringify writes it, or every code unit as a `\u` escape. */
  const stringText = fc
    .tuple(fc.string({ unit: "binary", maxLength: 8 }), fc.boolean())
    .map(([value, escaped]) =>
      escaped
        ? `"${[...Array(value.length).keys()].map((at) => `\\u${value.charCodeAt(at).toString(16).padStart(4, "0")}`).join("")}"`
        : JSON.stringify(value),
    );
  const digit = fc.constantFrom(..."0123456789");
  /** Some digits, then sometimes hundreds of one digit (a count shrinks quickly where a 600-character string does not). */
  const digits = (minLength: number) =>
    fc
      .tuple(fc.string({ unit: digit, minLength, maxLength: 4 }), digit, fc.oneof(fc.constant(0), fc.nat(600)))
      .map(([head, repeated, count]) => head + repeated.repeat(count));
  /** Any number JSON's grammar allows, long ones included (JSON.stringify writes none longer than ~25 characters). */
  const numberText = fc
    .tuple(
      fc.constantFrom("", "-"),
      fc.oneof(
        fc.constant("0"),
        fc.tuple(fc.constantFrom(..."123456789"), digits(0)).map((parts) => parts.join("")),
      ),
      fc.option(digits(1)),
      fc.option(fc.tuple(fc.constantFrom("e", "E", "e+", "E-"), digits(1))),
    )
    .map(
      ([sign, whole, fraction, exponent]) =>
        `${sign}${whole}${fraction === null ? "" : `.${fraction}`}${exponent === null ? "" : exponent.join("")}`,
    );
  const valueText = fc.oneof(
    stringText,
    numberText,
    fc
      .tuple(fc.jsonValue({ maxDepth: 3, stringUnit: "binary" }), fc.constantFrom(undefined, 1, 2, "\t", " \r\n"))
      .map(([value, indent]) => JSON.stringify(value, null, indent)),
  );
  const entry = fc.record({
    key: name,
    keyText: fc.boolean(),
    value: valueText,
    spaces: fc.array(whitespace, { minLength: 4, maxLength: 4 }),
  });
  const entries = fc.array(entry, { maxLength: 8 }).map((list) =>
    list.map(({ key, keyText, value, spaces }) => ({
      key,
      keyText: keyText
        ? JSON.stringify(key)
        : `"${[...key].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}${char.length > 1 ? `\\u${char.charCodeAt(1).toString(16).padStart(4, "0")}` : ""}`).join("")}"`,
      value,
      spaces,
    })),
  );
  /** Optionally a byte order mark, then whitespace, the text, whitespace. */
  const framing = fc.tuple(fc.boolean(), whitespace, whitespace);
  const framed = (json: string, [bom, before, after]: [boolean, string, string]) =>
    text(`${bom ? "\uFEFF" : ""}${before}${json}${after}`);

  type Entry = { key: string; keyText: string; value: string; spaces: string[] };
  const objectText = (list: Entry[], inside: string) =>
    list.length === 0
      ? `{${inside}}`
      : `{${list.map(({ keyText, value, spaces: [a, b, c, d] }) => `${a}${keyText}${b}:${c}${value}${d}`).join(",")}}`;

  /**
   * What jsonMembers documents: each name's FIRST value, the scan ending once every name is found or the first name
   * has a string value. First-wins (JSON.parse, and PostgreSQL's jsonb, keep the last) is deliberate: duplicate names
   * are outside interoperable JSON (RFC 8259 §4: behaviour unpredictable), and last-wins could never stop early, so
   * every body would be scanned to its end to read a `type` that is almost always near its start (2 µs instead of
   * 0.16 ms per 100 KB). The event type is a label read once at receipt; the body is stored and served as sent.
   */
  function documented(list: Entry[], keys: string[]): (string | undefined)[] {
    const found: (string | undefined)[] = keys.map(() => undefined);
    for (const { key, value } of list) {
      const slot = keys.indexOf(key);
      if (slot < 0 || found[slot] !== undefined) continue;
      found[slot] = value;
      if (found.every((span) => span !== undefined) || (slot === 0 && value.startsWith('"'))) break;
    }
    return found;
  }

  it("reads each named member's value exactly as written, and as JSON.parse reads it when the name is not repeated", () => {
    fc.assert(
      fc.property(
        entries,
        whitespace,
        framing,
        fc.shuffledSubarray(NAMES, { minLength: 1 }),
        (list, inside, frame, keys) => {
          const json = objectText(list, inside);
          const buffer = framed(json, frame);
          const whole = JSON.parse(json) as Record<string, unknown>;
          const found = jsonMembers(buffer, jsonRoot(buffer)!, keys);
          const values = found!.map((span) => span && buffer.toString("utf8", span.start, span.end));
          expect(values).toEqual(documented(list, keys));
          keys.forEach((key, slot) => {
            const span = found![slot];
            if (!span) return;
            const once = list.filter((member) => member.key === key).length === 1;
            if (once) expect(JSON.parse(values[slot]!)).toEqual(whole[key]);
            if (values[slot]!.startsWith('"')) expect(jsonString(buffer, span)).toBe(JSON.parse(values[slot]!));
          });
        },
      ),
    );
  });

  it("takes the first of repeated names, however the scan ends", () => {
    const repeated = fc.array(fc.constantFrom("type", "event"), { minLength: 2, maxLength: 6 });
    fc.assert(
      fc.property(repeated, fc.array(valueText, { minLength: 6, maxLength: 6 }), (names, values) => {
        const list = names.map((key, at) => ({
          key,
          keyText: JSON.stringify(key),
          value: values[at]!,
          spaces: ["", "", "", ""],
        }));
        const buffer = text(objectText(list, ""));
        for (const keys of [["type"], ["event", "type"], ["type", "event", "absent"]]) {
          const found = jsonMembers(buffer, jsonRoot(buffer)!, keys)!;
          expect(found.map((span) => span && buffer.toString("utf8", span.start, span.end))).toEqual(
            documented(list, keys),
          );
        }
      }),
    );
  });

  it("agrees with JSON.parse on generated documents, nested objects and arrays included", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ stringUnit: "binary" }),
        fc.constantFrom(undefined, 1, "\t", "\r\n "),
        (value, indent) => {
          const json = JSON.stringify(value, null, indent);
          const buffer = text(json);
          // Every object and array in the document, each one read through its parent's span.
          const pending: [JsonSpan, unknown][] = [[jsonRoot(buffer)!, JSON.parse(json)]];
          for (let next = pending.pop(); next; next = pending.pop()) {
            const [span, parsed] = next;
            const read = (inner: JsonSpan | null | undefined) =>
              JSON.parse(buffer.toString("utf8", inner!.start, inner!.end));
            if (Array.isArray(parsed)) {
              parsed.forEach((element, index) => {
                const inner = jsonElement(buffer, span, index);
                expect(read(inner)).toEqual(element);
                pending.push([inner!, element]);
              });
              expect(jsonElement(buffer, span, parsed.length)).toBeNull();
              expect(jsonMembers(buffer, span, ["a"])).toBeNull();
            } else if (parsed !== null && typeof parsed === "object") {
              for (const [key, member] of Object.entries(parsed)) {
                // One name at a time: with several, a string first name ends the scan early.
                const inner = jsonMembers(buffer, span, [key])![0];
                expect(read(inner)).toEqual(member);
                if (typeof member === "string") expect(jsonString(buffer, inner!)).toBe(member);
                pending.push([inner!, member]);
              }
              expect(jsonElement(buffer, span, 0)).toBeNull();
            } else {
              expect(jsonMembers(buffer, span, ["a"])).toBeNull();
              expect(jsonElement(buffer, span, 0)).toBeNull();
              expect(jsonString(buffer, span)).toBe(typeof parsed === "string" ? parsed : null);
            }
          }
        },
      ),
    );
  });

  it("indexes arrays as JSON.parse does, whatever the spacing", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(whitespace, valueText, whitespace), { maxLength: 8 }),
        whitespace,
        framing,
        (elements, inside, frame) => {
          const json =
            elements.length === 0
              ? `[${inside}]`
              : `[${elements.map(([a, value, b]) => `${a}${value}${b}`).join(",")}]`;
          const buffer = framed(json, frame);
          const parsed = JSON.parse(json) as unknown[];
          const root = jsonRoot(buffer)!;
          elements.forEach(([, value], index) => {
            const span = jsonElement(buffer, root, index)!;
            expect(buffer.toString("utf8", span.start, span.end)).toBe(value);
            expect(JSON.parse(value)).toEqual(parsed[index]);
          });
          expect(jsonElement(buffer, root, elements.length)).toBeNull();
        },
      ),
    );
  });

  /** Every reader over `buffer`, nested spans too; none may throw, and every span lies inside the one it came from. */
  function readEverything(buffer: Buffer) {
    const root = jsonRoot(buffer);
    if (!root) return;
    const pending: JsonSpan[] = [root];
    for (let span = pending.pop(), budget = 50; span && budget > 0; span = pending.pop(), budget -= 1) {
      const inner = [
        ...(jsonMembers(buffer, span, NAMES) ?? []),
        ...[0, 1, 3].map((index) => jsonElement(buffer, span!, index)),
      ];
      for (const found of inner) {
        if (!found) continue;
        expect(found.start).toBeGreaterThanOrEqual(span.start);
        expect(found.end).toBeLessThanOrEqual(span.end);
        expect(found.start).toBeLessThan(found.end);
        const string = jsonString(buffer, found);
        if (string !== null) expect(typeof string).toBe("string");
        pending.push(found);
      }
    }
  }

  const token = fc.constantFrom(
    "{",
    "}",
    "[",
    "]",
    '"',
    "\\",
    ":",
    ",",
    " ",
    '"type"',
    "1",
    "-0.5e3",
    "tru",
    "true",
    "null",
    '"x"',
    "\\u00",
    "\\ud83d",
    "é",
    "\u0001",
  );

  it("never throws on arbitrary bytes or token soup", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 4096 }).map((bytes) => Buffer.from(bytes)),
          fc
            .tuple(fc.constantFrom("", "{", '{"type":', "["), fc.uint8Array({ maxLength: 4096 }))
            .map(([head, bytes]) => Buffer.concat([text(head), bytes])),
          fc.array(token, { maxLength: 200 }).map((tokens) => text(tokens.join(""))),
        ),
        (buffer) => readEverything(buffer),
      ),
      { numRuns: 300 },
    );
  });

  it("never throws on broken JSON (truncated, or a quote, backslash or bracket inserted or removed), and reads valid results soundly", () => {
    const mutation = fc.record({
      at: fc.nat(),
      kind: fc.constantFrom("truncate", "insert", "remove"),
      insert: fc.constantFrom('"', "\\", "[", "]", "{", "}", ",", ":"),
    });
    fc.assert(
      fc.property(entries, fc.array(mutation, { minLength: 1, maxLength: 3 }), (list, mutations) => {
        let json = objectText(list, "");
        for (const { at, kind, insert } of mutations) {
          const where = at % (json.length + 1);
          json =
            kind === "truncate"
              ? json.slice(0, where)
              : kind === "insert"
                ? json.slice(0, where) + insert + json.slice(where)
                : json.slice(0, where) + json.slice(where + 1);
        }
        const buffer = text(json);
        readEverything(buffer);
        let valid = true;
        try {
          JSON.parse(json);
        } catch {
          valid = false;
        }
        const root = jsonRoot(buffer);
        const found = valid && root ? jsonMembers(buffer, root, NAMES) : null;
        // In a valid document every value found is valid JSON, and every string one decodes.
        for (const span of found ?? []) {
          if (!span) continue;
          const value = buffer.toString("utf8", span.start, span.end);
          expect(() => JSON.parse(value)).not.toThrow();
          if (value.startsWith('"')) expect(jsonString(buffer, span)).toBe(JSON.parse(value));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("steps over 100 000 levels of nesting, and gives up on them unclosed, without recursion", () => {
    const deep = 100_000;
    const nested = text(
      `{"a":${"[".repeat(deep)}${"]".repeat(deep)},"b":${'{"c":'.repeat(deep)}1${"}".repeat(deep)},"type":"deep"}`,
    );
    const found = jsonMembers(nested, jsonRoot(nested)!, ["type"])![0]!;
    expect(jsonString(nested, found)).toBe("deep");
    for (const open of [
      "[".repeat(deep),
      `{"a":${"[".repeat(deep)}`,
      `{"a":${"{".repeat(deep)}`,
      `[${'"\\\\\\"'.repeat(deep)}`,
    ]) {
      const buffer = text(open);
      const root = jsonRoot(buffer)!;
      expect(jsonMembers(buffer, root, ["a"])).toBeNull();
      expect(jsonElement(buffer, root, 1)).toBeNull();
    }
  });
});
