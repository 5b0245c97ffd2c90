import type { SigningScheme } from "./signing-schemes";
import { SIGNING_SCHEMES } from "./signing-schemes";

/**
 * "Send test delivery" does what a webhook sender does: POST a JSON event to the endpoint's public ingest URL. That
 * address is not part of our typed /v1 API (no session, no contract client; the endpoint id is its only secret), so
 * this is the one place the dashboard uses `fetch` directly.
 */

export interface TestDeliveryTarget {
  id: string;
  name: string;
  ingestUrl: string;
  enabled: boolean;
  signing: { scheme: SigningScheme; rejectInvalid: boolean } | null;
}

export type TestDeliveryResult = { ok: true; deliveryId: string; message: string } | { ok: false; message: string };

/** The sample event: recognisable by its `type`, unique by its `id`. */
export function sampleTestEvent(endpoint: Pick<TestDeliveryTarget, "id" | "name">, id: string, now: Date) {
  return {
    type: "signalbox.test",
    id,
    createdAt: now.toISOString(),
    data: {
      message: "A test delivery sent from the Signalbox dashboard. Acknowledge it like any other delivery.",
      endpoint: { id: endpoint.id, name: endpoint.name },
    },
  };
}

/**
 * Where the browser should POST. The ingest URL's origin is the configured public address (PUBLIC_BASE_URL); when
 * the dashboard is opened under another origin, a cross-origin JSON POST would need CORS, which the ingest route does
 * not answer (senders are servers). The same app serves both, so post to the same path on this origin instead.
 */
export function testDeliveryUrl(ingestUrl: string, pageOrigin: string): string {
  const url = new URL(ingestUrl, pageOrigin);
  return url.origin === pageOrigin ? url.href : new URL(`${url.pathname}${url.search}`, pageOrigin).href;
}

/** Turns the ingest route's answer into a sentence about what happened to the test delivery. */
export function describeIngestAnswer(endpoint: TestDeliveryTarget, status: number, body: unknown): TestDeliveryResult {
  const deliveryId =
    status === 200 && typeof body === "object" && body !== null && "deliveryId" in body
      ? String(body.deliveryId)
      : null;
  if (deliveryId) {
    const flagged = endpoint.signing
      ? ` Its ${SIGNING_SCHEMES[endpoint.signing.scheme].label.replace(/ \(.*\)$/, "")} signature check failed, as expected: the test is not signed.`
      : "";
    return {
      ok: true,
      deliveryId,
      message: `Delivered: it is now pending in the inbox (delivery ${deliveryId}).${flagged}`,
    };
  }
  if (status === 404) {
    return {
      ok: false,
      message: endpoint.enabled
        ? "Refused with 404: the endpoint no longer exists."
        : "Refused with 404: the endpoint is disabled. Enable it to receive deliveries.",
    };
  }
  if (status === 401) {
    return {
      ok: false,
      message:
        "Refused with 401: this endpoint refuses deliveries without a valid signature, and a test from the dashboard is not signed.",
    };
  }
  const message =
    typeof body === "object" &&
    body !== null &&
    "error" in body &&
    typeof body.error === "object" &&
    body.error !== null &&
    "message" in body.error
      ? String(body.error.message)
      : null;
  return { ok: false, message: `Refused with ${status}${message ? `: ${message}` : "."}` };
}

/** A random event id; `crypto.randomUUID` exists only in secure contexts, `getRandomValues` everywhere. */
export function randomEventId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `evt_test_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

export async function sendTestDelivery(
  endpoint: TestDeliveryTarget,
  options: { fetch?: typeof fetch; origin?: string; now?: Date; eventId?: string } = {},
): Promise<TestDeliveryResult> {
  const fetchImpl = options.fetch ?? fetch;
  const url = testDeliveryUrl(endpoint.ingestUrl, options.origin ?? window.location.origin);
  const event = sampleTestEvent(endpoint, options.eventId ?? randomEventId(), options.now ?? new Date());
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(event),
      credentials: "omit",
    });
  } catch {
    return {
      ok: false,
      message: "Could not reach the ingest URL. Check that Signalbox is running and reachable at this address.",
    };
  }
  const body: unknown = await response.json().catch(() => undefined);
  return describeIngestAnswer(endpoint, response.status, body);
}
