import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { startApp, type RunningApp } from "@/test/app-server";
import * as generatedClient from "./client";

// The client a user generates from /v1/openapi.json (openapi-typescript + openapi-fetch), run against the real app.

let app: RunningApp;
let key: string;

beforeAll(async () => {
  app = await startApp();
  const workspace = await createWorkspace({ name: "Generated client" });
  ({ key } = await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" }));
});

afterAll(async () => {
  await app?.stop();
});

it("sends a JSON webhook as JSON, once: the delivery stores the exact bytes of the object", async () => {
  const client = generatedClient.createSignalboxClient(app.baseUrl, key);
  const endpointId = await generatedClient.createEndpoint(client, "orders");
  const deliveryId = await generatedClient.sendWebhook(client, endpointId, { i: 0, name: "Zoë" });

  const raw = await fetch(`${app.baseUrl}/v1/webhook-endpoints/deliveries/${deliveryId}/raw`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(raw.headers.get("content-type")).toBe("application/json");
  expect(Buffer.from(await raw.arrayBuffer()).toString("utf8")).toBe('{"i":0,"name":"Zoë"}');
  expect(await generatedClient.pendingDeliveryIds(client, endpointId)).toEqual([deliveryId]);
});

it("creates an API key whose fields read as documented", async () => {
  const client = generatedClient.createSignalboxClient(app.baseUrl, key);
  const created = await generatedClient.createApiKey(client, "ci", "test");
  expect(created).toMatchObject({ name: "ci", mode: "test", revokedAt: null });
  expect(created.key.startsWith(created.start)).toBe(true);
});
