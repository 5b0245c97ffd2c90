import type { WebhookEndpoint } from "../_hooks/use-endpoints";

export type EventTypeSource = WebhookEndpoint["eventTypeSource"];

/** The kinds of source the settings form offers. */
export type EventTypeSourceKind = "builtIn" | "header" | "jsonPath";

export function eventTypeSourceKind(source: EventTypeSource): EventTypeSourceKind {
  if (!source) return "builtIn";
  return "header" in source ? "header" : "jsonPath";
}

/** The source as the form edits it: a kind and one text. */
export function eventTypeSourceText(source: EventTypeSource): string {
  if (!source) return "";
  return "header" in source ? source.header : source.jsonPath;
}

/** What the form sends: null for the built-in senders only. */
export function toEventTypeSource(kind: EventTypeSourceKind, text: string): EventTypeSource {
  if (kind === "header") return { header: text.trim() };
  return kind === "jsonPath" ? { jsonPath: text.trim() } : null;
}

/** One line for the endpoint card. */
export function describeEventTypeSource(source: EventTypeSource): string {
  if (!source) return "From the sender's usual place (GitHub, Stripe, Shopify, Slack, …)";
  return "header" in source
    ? `Header ${source.header}, else the usual place`
    : `JSON ${source.jsonPath}, else the usual place`;
}
