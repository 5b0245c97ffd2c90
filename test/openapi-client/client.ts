import createClient from "openapi-fetch";
import type { paths } from "./schema.generated";

/*
 * What a user of the API writes with openapi-fetch and the types openapi-typescript generates from /v1/openapi.json.
 * lib/api/openapi-client.test.ts compiles it under `tsc --strict`; test/openapi-client/client.integration.test.ts runs
 * it against the real app.
 */

export function createSignalboxClient(baseUrl: string, apiKey: string) {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${apiKey}` } });
}

type SignalboxClient = ReturnType<typeof createSignalboxClient>;

function failure(what: string, response: Response, error: unknown): Error {
  return new Error(`${what}: ${response.status} ${JSON.stringify(error)}`);
}

/** Sends a JSON webhook to an ingest URL, as a sender would; the delivery's id. */
export async function sendWebhook(client: SignalboxClient, hookId: string, payload: object): Promise<string> {
  const { data, error, response } = await client.POST("/webhooks/ingest/{hookId}", {
    params: { path: { hookId } },
    body: payload,
  });
  if (!data) throw failure("ingest", response, error);
  return data.deliveryId;
}

/** The ids of an endpoint's deliveries that are not acknowledged yet. */
export async function pendingDeliveryIds(client: SignalboxClient, endpointId: string): Promise<string[]> {
  const { data, error, response } = await client.GET("/v1/webhook-endpoints/deliveries", {
    params: { query: { endpointId, unacknowledged: true, limit: 100 } },
  });
  if (!data) throw failure("list deliveries", response, error);
  return data.data.deliveries.map((delivery) => delivery.id);
}

/** Creates a webhook endpoint; its id (the secret part of its ingest URL). */
export async function createEndpoint(client: SignalboxClient, name: string): Promise<string> {
  const { data, error, response } = await client.POST("/v1/webhook-endpoints", { body: { name } });
  if (!data) throw failure("create endpoint", response, error);
  return data.data.id;
}

/** Creates an API key: the secret (shown once) and the fields a key list shows. */
export async function createApiKey(client: SignalboxClient, name: string, mode: "live" | "test") {
  const { data, error, response } = await client.POST("/v1/api-keys", { body: { name, mode } });
  if (!data) throw failure("create API key", response, error);
  const { key, apiKey } = data.data;
  const revokedAt: string | null = apiKey.revokedAt;
  return { key, id: apiKey.id, name: apiKey.name, mode: apiKey.mode, start: apiKey.start, revokedAt };
}
