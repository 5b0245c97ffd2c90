import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { byteaArrayPieces, jsonbArray, textArray } from "./binary-array";
import { dbPool } from "./client";
import { piecewiseQuery } from "./piecewise-query";

// The ingest INSERT's parameters written piece by piece (./piecewise-query.ts), read back by PostgreSQL on this file's
// database: what arrives must be exactly what the buffers held, large elements referenced or small ones packed.

const ROUND_TRIP = `
  SELECT ord::int AS ord, body, md5(body) AS digest, octet_length(body) AS size, tag, document
  FROM unnest($1::bytea[], $2::text[], $3::jsonb[]) WITH ORDINALITY AS r (body, tag, document, ord)
  ORDER BY ord`;

interface Row {
  ord: number;
  body: Buffer | null;
  digest: string | null;
  size: number | null;
  tag: string | null;
  document: unknown;
}

describe("piecewiseQuery", () => {
  it("delivers bytea, text and jsonb arrays exactly, whatever the element sizes", async () => {
    // Sizes around both thresholds (16 KiB packing, 64 KiB referencing), an empty body and one of the 1 MiB limit.
    const sizes = [0, 1, 16 * 1024 - 1, 16 * 1024, 64 * 1024 - 1, 64 * 1024, 200_000, 1_048_576, 3];
    const bodies = sizes.map((size) => randomBytes(size));
    const tags = sizes.map((size, index) => (index % 3 === 0 ? null : `tag ${size} “ü”`));
    const documents = sizes.map((size, index) =>
      index % 4 === 1 ? null : Buffer.from(JSON.stringify({ size, text: "zoë" })),
    );
    const { rows } = await piecewiseQuery<Row>(dbPool(), ROUND_TRIP, [
      byteaArrayPieces(bodies),
      [textArray(tags)],
      [jsonbArray(documents)],
    ]);
    expect(rows).toHaveLength(sizes.length);
    rows.forEach((row, index) => {
      expect(row.ord).toBe(index + 1);
      expect(row.size).toBe(sizes[index]);
      expect(Buffer.compare(row.body!, bodies[index]!)).toBe(0);
      expect(row.tag).toBe(tags[index]);
      expect(row.document).toEqual(index % 4 === 1 ? null : { size: sizes[index], text: "zoë" });
    });
  });

  it("passes a null parameter, and reports a statement's error like any query, leaving the connection usable", async () => {
    const { rows } = await piecewiseQuery<{ missing: boolean }>(dbPool(), "SELECT $1::bytea IS NULL AS missing", [
      null,
    ]);
    expect(rows).toEqual([{ missing: true }]);
    await expect(piecewiseQuery(dbPool(), "SELECT $1::jsonb", [[Buffer.from("\u0001{broken")]])).rejects.toThrow();
    const again = await piecewiseQuery<{ size: number }>(dbPool(), "SELECT octet_length($1::bytea) AS size", [
      [Buffer.alloc(40_000), Buffer.alloc(30_000)],
    ]);
    expect(again.rows).toEqual([{ size: 70_000 }]);
  });
});
