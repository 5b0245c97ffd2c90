import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { createApiClient } from "@/lib/client/api-client";
import { followDeliveryEvents, type DeliveryEventMessage } from "@/lib/client/delivery-events";
import { acknowledgeDeliveryContract, createWebhookEndpointContract } from "@/lib/contracts/webhooks";
import { startApp, type RunningApp } from "@/test/app-server";

// Live updates end to end: an ingest (or an ack) on the server → PostgreSQL NOTIFY → the instance's LISTEN
// connection → the workspace's open event streams. Two app instances on one database show it crosses instances.

let sender: RunningApp;
let reader: RunningApp;

beforeAll(async () => {
  [sender, reader] = await Promise.all([startApp(), startApp()]);
});

afterAll(async () => {
  await Promise.all([sender?.stop(), reader?.stop()]);
});

async function tenant() {
  const workspace = await createWorkspace({ name: "Live" });
  const { key } = await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" });
  const endpoint = await createApiClient({ baseUrl: sender.baseUrl, apiKey: key }).call(createWebhookEndpointContract, {
    body: { name: "Live" },
  });
  return { key, endpoint: endpoint.data };
}

function follow(key: string) {
  const events: DeliveryEventMessage[] = [];
  const controller = new AbortController();
  const done = followDeliveryEvents({
    baseUrl: reader.baseUrl,
    headers: { authorization: `Bearer ${key}` },
    signal: controller.signal,
    onEvent: (event) => events.push(event),
  }).catch(() => {});
  return { events, stop: async () => (controller.abort(), done) };
}

describe("delivery events", () => {
  it("streams new and acknowledged deliveries of the workspace, from another instance, and nothing of others", async () => {
    const mine = await tenant();
    const other = await tenant();
    const stream = follow(mine.key);
    const otherStream = follow(other.key);
    // Let both streams subscribe before anything happens.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const ingest = await fetch(mine.endpoint.ingestUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"live":true}',
    });
    const { deliveryId } = (await ingest.json()) as { deliveryId: string };
    await expect
      .poll(() => stream.events, { timeout: 10_000 })
      .toContainEqual({ type: "delivery.created", endpointId: mine.endpoint.id, deliveryId });

    await createApiClient({ baseUrl: sender.baseUrl, apiKey: mine.key }).call(acknowledgeDeliveryContract, {
      params: { id: deliveryId },
    });
    await expect
      .poll(() => stream.events, { timeout: 10_000 })
      .toContainEqual({ type: "delivery.acknowledged", endpointId: mine.endpoint.id, deliveryId });

    await stream.stop();
    await otherStream.stop();
    expect(otherStream.events).toEqual([]);
  });

  it("announces each of many deliveries that arrive together (written, and announced, in shared statements)", async () => {
    const mine = await tenant();
    const stream = follow(mine.key);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answers = await Promise.all(
      Array.from({ length: 120 }, async (_, index) => {
        const response = await fetch(mine.endpoint.ingestUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ index }),
        });
        return ((await response.json()) as { deliveryId: string }).deliveryId;
      }),
    );
    const created = () =>
      stream.events.filter((event) => event.type === "delivery.created").map((event) => event.deliveryId);
    await expect.poll(() => created().length, { timeout: 15_000 }).toBe(120);
    expect(new Set(created())).toEqual(new Set(answers));
    await stream.stop();
  });

  it("requires authentication", async () => {
    const response = await fetch(`${reader.baseUrl}/v1/webhook-endpoints/deliveries/events`);
    expect(response.status).toBe(401);
  });
});
