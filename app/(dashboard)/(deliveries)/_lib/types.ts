import type { z } from "zod";
import type { deliverySchema, webhookEndpointSchema } from "@/lib/contracts/webhooks";

/** One delivery as the API returns it. */
export type Delivery = z.output<typeof deliverySchema>;
export type WebhookEndpoint = z.output<typeof webhookEndpointSchema>;

/** One page of the deliveries list, as the dashboard keeps it in the react-query cache. */
export interface DeliveryPage {
  deliveries: Delivery[];
  nextCursor: string | null;
}

/** react-query's `InfiniteData`, spelled out so this pure code does not depend on the library. */
export interface DeliveryPages {
  pages: DeliveryPage[];
  pageParams: unknown[];
}

/** The list filters; the values are what the API's query string takes. */
export interface DeliveryFilters {
  endpointId?: string;
  unacknowledged?: "true" | "false";
  eventType?: string;
  q?: string;
  since?: string;
  until?: string;
  payload?: string;
}
