import { describe, expect, it } from "vitest";
import { makeDelivery as d, page, pages } from "@/test/delivery-fixtures";
import { flattenDeliveries } from "./delivery-pages";
import { applyAck, BULK_ACK_LIMIT, chunk, rollbackAck } from "./optimistic-ack";

const AT = "2025-02-01T00:00:00.000Z";
const EARLIER = "2025-01-15T00:00:00.000Z";

function statuses(data: Parameters<typeof flattenDeliveries>[0]): (string | null)[] {
  return flattenDeliveries(data).map((row) => row.acknowledgedAt);
}

describe("applyAck", () => {
  it("acknowledges pending rows across pages without moving any row", () => {
    const data = pages(page([d(3), d(2)], "c1"), page([d(1)]));
    const { data: next, applied } = applyAck(data, [d(3).id, d(1).id], AT);
    expect(flattenDeliveries(next).map((row) => row.id)).toEqual(flattenDeliveries(data).map((row) => row.id));
    expect(statuses(next)).toEqual([AT, null, AT]);
    expect(applied).toEqual({ ids: [d(3).id, d(1).id], acknowledgedAt: AT });
    expect(statuses(data)).toEqual([null, null, null]);
  });

  it("keeps the first acknowledgedAt of rows acknowledged already", () => {
    const data = pages(page([d(2, { acknowledgedAt: EARLIER }), d(1)]));
    const { data: next, applied } = applyAck(data, [d(2).id, d(1).id], AT);
    expect(statuses(next)).toEqual([EARLIER, AT]);
    expect(applied.ids).toEqual([d(1).id]);
  });

  it("changes nothing (same object) when no wanted row is pending or loaded", () => {
    const data = pages(page([d(2, { acknowledgedAt: EARLIER })]));
    expect(applyAck(data, [d(2).id, d(9).id], AT).data).toBe(data);
  });
});

describe("rollbackAck", () => {
  it("restores exactly the rows the optimistic update changed", () => {
    const data = pages(page([d(3), d(2, { acknowledgedAt: EARLIER }), d(1)]));
    const { data: optimistic, applied } = applyAck(data, [d(3).id, d(2).id], AT);
    expect(statuses(rollbackAck(optimistic, applied))).toEqual([null, EARLIER, null]);
  });

  it("survives new arrivals merged in meanwhile", () => {
    const data = pages(page([d(2), d(1)]));
    const { data: optimistic, applied } = applyAck(data, [d(1).id], AT);
    const withArrival = {
      ...optimistic,
      pages: [{ ...optimistic.pages[0]!, deliveries: [d(5), ...optimistic.pages[0]!.deliveries] }],
    };
    const rolledBack = rollbackAck(withArrival, applied);
    expect(flattenDeliveries(rolledBack).map((row) => row.id)).toEqual([d(5).id, d(2).id, d(1).id]);
    expect(statuses(rolledBack)).toEqual([null, null, null]);
  });

  it("leaves a row alone that something else changed since", () => {
    const data = pages(page([d(1)]));
    const { data: optimistic, applied } = applyAck(data, [d(1).id], AT);
    const serverVersion = { ...optimistic, pages: [page([d(1, { acknowledgedAt: "2025-02-01T00:00:00.123Z" })])] };
    expect(rollbackAck(serverVersion, applied)).toBe(serverVersion);
  });
});

describe("chunk", () => {
  it("splits ids into batches the bulk route accepts", () => {
    const idsList = Array.from({ length: 230 }, (_, index) => String(index));
    expect(chunk(idsList, BULK_ACK_LIMIT).map((batch) => batch.length)).toEqual([100, 100, 30]);
    expect(chunk([], BULK_ACK_LIMIT)).toEqual([]);
  });
});
