import { v4 as uuidv4, v7 as uuidv7 } from "uuid";
import { describe, expect, it } from "vitest";
import { DAY_MS } from "./delivery-partitions";
import { newDeliveryId, receiptTimeBounds } from "./delivery-ids";

const at = (iso: string) => new Date(iso).getTime();

describe("delivery ids", () => {
  it("are UUIDv7s that carry the time they were made, in order", () => {
    const before = Date.now();
    const ids = Array.from({ length: 50 }, () => newDeliveryId());
    const after = Date.now();
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const bounds = receiptTimeBounds(ids)!;
    const [from, to] = bounds.values as Date[];
    expect(from!.getTime()).toBeGreaterThanOrEqual(before - DAY_MS);
    expect(to!.getTime()).toBeLessThanOrEqual(after + DAY_MS);
    expect([...ids].sort()).toEqual(ids);
  });

  it("bound the receipt times of a batch by its earliest and latest id, a day of slack each side", () => {
    const early = uuidv7({ msecs: at("2026-11-20T10:00:00.000Z") });
    const late = uuidv7({ msecs: at("2026-11-27T23:59:59.999Z") });
    const bounds = receiptTimeBounds([late, early])!;
    expect(bounds.sql).toBe("created_at >= ?::timestamptz AND created_at < ?::timestamptz");
    expect(bounds.values).toEqual([new Date("2026-11-19T10:00:00.000Z"), new Date("2026-11-28T23:59:59.999Z")]);
  });

  it("give no bound when an id does not carry a time (a UUIDv4 from before), or there are none", () => {
    expect(receiptTimeBounds([uuidv7(), uuidv4()])).toBeNull();
    expect(receiptTimeBounds([uuidv4()])).toBeNull();
    expect(receiptTimeBounds([])).toBeNull();
  });
});
