import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { byteaArray, jsonbArray, textArray } from "./binary-array";

/** array_recv's input written the plain way, element by element, for comparison. */
function reference(elementOid: number, elements: (Buffer | null)[], prefix?: number): Buffer {
  const int = (value: number) => {
    const word = Buffer.alloc(4);
    word.writeInt32BE(value);
    return word;
  };
  const parts: Buffer[] = [int(1), int(elements.some((element) => element === null) ? 1 : 0), int(elementOid)];
  parts.push(int(elements.length), int(1));
  for (const element of elements) {
    if (element === null) {
      parts.push(int(-1));
      continue;
    }
    const body = prefix === undefined ? element : Buffer.concat([Buffer.from([prefix]), element]);
    parts.push(int(body.length), body);
  }
  return Buffer.concat(parts);
}

describe("binary arrays", () => {
  it("writes text[] as array_recv reads it, whatever the strings (multi-byte, empty, null)", () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.string({ unit: "grapheme" }), { nil: null }), { maxLength: 30 }), (values) => {
        const expected = reference(
          25,
          values.map((value) => (value === null ? null : Buffer.from(value, "utf8"))),
        );
        expect(textArray(values).equals(expected)).toBe(true);
      }),
    );
  });

  it("writes lone surrogates as U+FFFD, as Buffer.from does", () => {
    expect(textArray(["a\uD800b"]).equals(reference(25, [Buffer.from("a\uFFFDb", "utf8")]))).toBe(true);
  });

  it("writes bytea[] with large elements included whole, and jsonb[] with its version byte", () => {
    const large = Buffer.alloc(70 * 1024, 7);
    expect(
      byteaArray([Buffer.from("ab"), large, Buffer.alloc(0)]).equals(
        reference(17, [Buffer.from("ab"), large, Buffer.alloc(0)]),
      ),
    ).toBe(true);
    const documents = [Buffer.from('{"a":1}'), null];
    expect(jsonbArray(documents).equals(reference(3802, documents, 1))).toBe(true);
  });
});
