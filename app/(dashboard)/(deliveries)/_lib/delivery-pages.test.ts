import { describe, expect, it } from "vitest";
import { ids, makeDelivery as d, page, pages } from "@/test/delivery-fixtures";
import {
  compareNewestFirst,
  findDelivery,
  findNewArrivals,
  flattenDeliveries,
  mergeArrivals,
  replaceDelivery,
} from "./delivery-pages";

describe("compareNewestFirst", () => {
  it("orders by createdAt descending, then id descending", () => {
    const sameTime = { createdAt: "2025-01-01T00:00:00.000Z" };
    const rows = [d(1), d(3), { ...d(2), ...sameTime, id: "a" }, { ...d(2), ...sameTime, id: "b" }];
    expect(rows.sort(compareNewestFirst).map((row) => row.id.slice(-3))).toEqual(["003", "001", "b", "a"]);
  });
});

describe("flattenDeliveries", () => {
  it("keeps page order and drops repeated ids", () => {
    const data = pages(page([d(9), d(8)], "c1"), page([d(8), d(7)]));
    expect(ids(flattenDeliveries(data))).toEqual(["009", "008", "007"]);
    expect(flattenDeliveries(undefined)).toEqual([]);
  });
});

describe("findNewArrivals", () => {
  const loaded = pages(page([d(10), d(9)], "c1"), page([d(8)]));

  it("finds rows newer than the newest loaded one", () => {
    const result = findNewArrivals(loaded, page([d(12), d(11), d(10), d(9)], "next"));
    expect(ids(result.deliveries)).toEqual(["012", "011"]);
    expect(result.overflow).toBe(false);
  });

  it("finds nothing when the first page is unchanged", () => {
    expect(findNewArrivals(loaded, page([d(10), d(9)], "c1")).deliveries).toEqual([]);
    expect(findNewArrivals(loaded, undefined)).toEqual({ deliveries: [], overflow: false });
  });

  it("ignores older rows that are missing from the list", () => {
    // d(5) is older than the newest loaded row: it belongs further down and must not be announced as new.
    expect(ids(findNewArrivals(loaded, page([d(11), d(10), d(5)])).deliveries)).toEqual(["011"]);
  });

  it("ignores rows loaded on any page", () => {
    expect(findNewArrivals(loaded, page([d(10), d(9), d(8)])).deliveries).toEqual([]);
  });

  it("treats everything as new when nothing is loaded", () => {
    expect(ids(findNewArrivals(pages(page([])), page([d(2), d(1)])).deliveries)).toEqual(["002", "001"]);
    expect(ids(findNewArrivals(undefined, page([d(1)])).deliveries)).toEqual(["001"]);
  });

  it("reports overflow when the polled page is all new and has more behind it", () => {
    const result = findNewArrivals(loaded, page([d(14), d(13), d(12)], "more"));
    expect(result.overflow).toBe(true);
    expect(findNewArrivals(loaded, page([d(14), d(13), d(12)], null)).overflow).toBe(false);
  });
});

describe("mergeArrivals", () => {
  it("puts arrivals on top of the first page and leaves later pages and cursors alone", () => {
    const data = pages(page([d(10), d(9)], "c1"), page([d(8)]));
    const merged = mergeArrivals(data, [d(11), d(12)]);
    expect(ids(merged.pages[0]!.deliveries)).toEqual(["012", "011", "010", "009"]);
    expect(merged.pages[0]!.nextCursor).toBe("c1");
    expect(merged.pages[1]).toBe(data.pages[1]);
    expect(merged.pageParams).toEqual(data.pageParams);
  });

  it("never duplicates an id, whether loaded on any page or repeated in the arrivals", () => {
    const data = pages(page([d(10)], "c1"), page([d(8)]));
    const merged = mergeArrivals(data, [d(11), d(11), d(10), d(8)]);
    expect(ids(flattenDeliveries(merged))).toEqual(["011", "010", "008"]);
  });

  it("returns the same object when there is nothing new", () => {
    const data = pages(page([d(10)]));
    expect(mergeArrivals(data, [d(10)])).toBe(data);
  });

  it("creates the first page of an empty list", () => {
    const merged = mergeArrivals({ pages: [], pageParams: [] }, [d(1), d(2)]);
    expect(ids(merged.pages[0]!.deliveries)).toEqual(["002", "001"]);
    expect(merged.pages[0]!.nextCursor).toBeNull();
  });

  it("merging what findNewArrivals found then finds nothing more", () => {
    const data = pages(page([d(10), d(9)], "c1"));
    const latest = page([d(13), d(12), d(11), d(10)], "c");
    const merged = mergeArrivals(data, findNewArrivals(data, latest).deliveries);
    expect(ids(flattenDeliveries(merged))).toEqual(["013", "012", "011", "010", "009"]);
    expect(findNewArrivals(merged, latest).deliveries).toEqual([]);
  });
});

describe("replaceDelivery and findDelivery", () => {
  it("replaces a row in place on whichever page holds it", () => {
    const data = pages(page([d(10), d(9)], "c1"), page([d(8)]));
    const acked = d(8, { acknowledgedAt: "2025-01-02T00:00:00.000Z" });
    const next = replaceDelivery(data, acked);
    expect(ids(flattenDeliveries(next))).toEqual(["010", "009", "008"]);
    expect(findDelivery(next, acked.id)?.acknowledgedAt).toBe("2025-01-02T00:00:00.000Z");
    expect(next.pages[0]).toBe(data.pages[0]);
  });

  it("returns the same object when the id is not loaded", () => {
    const data = pages(page([d(10)]));
    expect(replaceDelivery(data, d(99))).toBe(data);
    expect(findDelivery(data, d(99).id)).toBeUndefined();
  });
});
