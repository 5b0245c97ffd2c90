import type { Delivery, DeliveryPage, DeliveryPages } from "@/app/(dashboard)/(deliveries)/_lib/types";

/** A delivery for unit tests; `n` orders them (a higher n is newer). */
export function makeDelivery(n: number, overrides: Partial<Delivery> = {}): Delivery {
  const second = String(n % 60).padStart(2, "0");
  const minute = String(Math.floor(n / 60)).padStart(2, "0");
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    webhookEndpointId: "we_test",
    workspaceId: "ws_test",
    rawPayload: { n },
    headers: { "content-type": "application/json" },
    sourceIp: "203.0.113.7",
    createdAt: `2025-01-01T10:${minute}:${second}.000Z`,
    acknowledgedAt: null,
    contentType: "application/json",
    sizeBytes: 8,
    query: "",
    signature: null,
    preview: `{"n":${n}}`,
    eventType: null,
    ...overrides,
  };
}

export function page(deliveries: Delivery[], nextCursor: string | null = null): DeliveryPage {
  return { deliveries, nextCursor };
}

export function pages(...list: DeliveryPage[]): DeliveryPages {
  return { pages: list, pageParams: list.map((_, index) => (index === 0 ? undefined : `cursor-${index}`)) };
}

export function ids(rows: { id: string }[]): string[] {
  return rows.map((row) => row.id.slice(-3));
}
