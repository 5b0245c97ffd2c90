import type { Delivery } from "./types";

export type DeliveryStatus = "pending" | "acknowledged";

/** DESIGN §4: Pending while `acknowledgedAt` is null, Acknowledged once it is set. */
export function deliveryStatus(delivery: Pick<Delivery, "acknowledgedAt">): DeliveryStatus {
  return delivery.acknowledgedAt === null ? "pending" : "acknowledged";
}

export const STATUS_LABELS: Record<DeliveryStatus, string> = { pending: "Pending", acknowledged: "Acknowledged" };

/** The status filter's choices, and the `unacknowledged` query value each one sends. */
export const STATUS_FILTERS = [
  { value: "all", label: "All statuses", unacknowledged: undefined },
  { value: "pending", label: "Pending", unacknowledged: "true" },
  { value: "acknowledged", label: "Acknowledged", unacknowledged: "false" },
] as const;

export type StatusFilter = (typeof STATUS_FILTERS)[number]["value"];

export function unacknowledgedParam(filter: StatusFilter): "true" | "false" | undefined {
  return STATUS_FILTERS.find((choice) => choice.value === filter)?.unacknowledged;
}
