import { describe, expect, it } from "vitest";
import { EXPORT_TAIL_BYTES, exportEndCount, keepTail } from "./export-end";

const bytes = (text: string) => new TextEncoder().encode(text);

/** What keepTail keeps after reading `chunks` one by one. */
function tailOf(...chunks: string[]): Uint8Array {
  return chunks.reduce<Uint8Array>((tail, chunk) => keepTail(tail, bytes(chunk)), new Uint8Array());
}

describe("export tail", () => {
  it("keeps the last bytes across chunks of any size", () => {
    const text = "x".repeat(1000) + "abc\n";
    expect(new TextDecoder().decode(tailOf(text))).toBe(text.slice(-EXPORT_TAIL_BYTES));
    const pieces = text.match(/.{1,7}/gs)!;
    expect(new TextDecoder().decode(tailOf(...pieces))).toBe(text.slice(-EXPORT_TAIL_BYTES));
    expect(new TextDecoder().decode(tailOf("ab", "c"))).toBe("abc");
  });

  it("reads the count of a complete export, split anywhere", () => {
    const lines = '{"id":"a","n":1}\n{"id":"b"}\n{"type":"end","count":2}\n';
    expect(exportEndCount(tailOf(lines))).toBe(2);
    expect(exportEndCount(tailOf(lines.slice(0, 20), lines.slice(20)))).toBe(2);
    expect(exportEndCount(tailOf('{"type":"end","count":0}\n'))).toBe(0);
  });

  it("says a cut export is cut", () => {
    expect(exportEndCount(tailOf(""))).toBeNull();
    expect(exportEndCount(tailOf('{"id":"a"}\n'))).toBeNull();
    expect(exportEndCount(tailOf('{"id":"a"}\n{"type":"end","cou'))).toBeNull();
    expect(exportEndCount(tailOf('{"id":"a"}\n{"type":"end","count":1}'))).toBeNull();
  });
});
