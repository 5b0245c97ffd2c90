import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { createApiClient, type ApiClient } from "@/lib/client/api-client";
import type { ClientInput } from "@/lib/contracts/contract";
import {
  createWebhookEndpointContract,
  getDeliveryContract,
  getWebhookEndpointContract,
  listDeliveriesContract,
  updateWebhookEndpointContract,
} from "@/lib/contracts/webhooks";
import { startApp, type RunningApp } from "@/test/app-server";
import { detailPaths, errorOf, postWebhook, requestApi } from "@/test/http-api";
import { INGEST_PATHS } from "@/test/ingest-paths";
import { SENDER_REQUESTS } from "@/test/webhook-senders";

// Event types over HTTP against the launched app, on both ingest servers: each well-known sender's request is stored
// with its type (read back by GET and by the listing, and found by the `eventType` filter), an endpoint's own header
// or JSON path is read first, and changing that setting applies from the very next delivery, although ingest remembers
// endpoints (lib/inbox/ingest-endpoints.ts). The endpoint setting's validation is checked once.

let app: RunningApp;
let key: string;
let client: ApiClient;

const createEndpoint = async (body: ClientInput<typeof createWebhookEndpointContract>["body"]) =>
  (await client.call(createWebhookEndpointContract, { body })).data;
const eventTypeOf = async (deliveryId: string) =>
  (await client.call(getDeliveryContract, { params: { id: deliveryId } })).data.eventType;

describe.each(INGEST_PATHS)("on the $name", (ingestPath) => {
  beforeAll(async () => {
    app = await startApp(ingestPath.env);
    const workspace = await createWorkspace({ name: `Event types, ${ingestPath.name}` });
    key = (await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" })).key;
    client = createApiClient({ baseUrl: app.baseUrl, apiKey: key });
  });

  afterAll(async () => {
    await app?.stop();
  });

  it("gives each well-known sender's delivery its type, on GET, in the listing and through the filter", async () => {
    const endpoint = await createEndpoint({ name: "Everyone" });
    const sent = new Map<string, string>();
    for (const request of SENDER_REQUESTS) {
      const id = await postWebhook(app.baseUrl, endpoint.id, request.body, request.headers);
      sent.set(id, request.eventType);
      expect(await eventTypeOf(id), request.name).toBe(request.eventType);
    }
    const listing = await client.call(listDeliveriesContract, {
      query: { endpointId: endpoint.id, withPayload: "false", limit: 100 },
    });
    expect(new Map(listing.data.deliveries.map((delivery) => [delivery.id, delivery.eventType]))).toEqual(sent);

    for (const [id, eventType] of sent) {
      const filtered = await client.call(listDeliveriesContract, { query: { eventType, withPayload: "false" } });
      const want = [...sent].filter(([, type]) => type === eventType).map(([sentId]) => sentId);
      expect(filtered.data.deliveries.map((delivery) => delivery.id).sort(), eventType).toEqual(want.sort());
      expect(want).toContain(id);
    }
  });

  it("reads nothing from compressed bodies or bodies of other types, and stores none", async () => {
    const endpoint = await createEndpoint({ name: "Plain" });
    const plain = await postWebhook(app.baseUrl, endpoint.id, '{"type":"x"}', { "content-type": "text/plain" });
    expect(await eventTypeOf(plain)).toBeNull();
    const none = await postWebhook(app.baseUrl, endpoint.id, '{"kind":"x"}', { "content-type": "application/json" });
    expect(await eventTypeOf(none)).toBeNull();
  });

  it("reads the endpoint's header or JSON path first, and a changed setting from the next delivery on", async () => {
    const endpoint = await createEndpoint({ name: "Custom", eventTypeSource: { header: "X-Event-Name" } });
    expect(endpoint.eventTypeSource).toEqual({ header: "x-event-name" });
    const body = JSON.stringify({ type: "generic", data: { object: { kind: "order.shipped" } } });
    const headers = { "content-type": "application/json", "x-event-name": "shipment.created" };

    expect(await eventTypeOf(await postWebhook(app.baseUrl, endpoint.id, body, headers))).toBe("shipment.created");
    // Absent from a delivery, the built-in places apply.
    expect(
      await eventTypeOf(await postWebhook(app.baseUrl, endpoint.id, body, { "content-type": "application/json" })),
    ).toBe("generic");

    const changed = await client.call(updateWebhookEndpointContract, {
      params: { id: endpoint.id },
      body: { eventTypeSource: { jsonPath: "data.object.kind" } },
    });
    expect(changed.data.eventTypeSource).toEqual({ jsonPath: "data.object.kind" });
    // Ingest remembered the endpoint with its header setting: the stored row must still follow the new one.
    expect(await eventTypeOf(await postWebhook(app.baseUrl, endpoint.id, body, headers))).toBe("order.shipped");

    await client.call(updateWebhookEndpointContract, { params: { id: endpoint.id }, body: { eventTypeSource: null } });
    expect((await client.call(getWebhookEndpointContract, { params: { id: endpoint.id } })).data.eventTypeSource).toBe(
      null,
    );
    expect(await eventTypeOf(await postWebhook(app.baseUrl, endpoint.id, body, headers))).toBe("generic");
  });
});

describe("the endpoint's event type source is validated", () => {
  beforeAll(async () => {
    app = await startApp();
    const workspace = await createWorkspace({ name: "Event type settings" });
    key = (await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" })).key;
    client = createApiClient({ baseUrl: app.baseUrl, apiKey: key });
  });

  afterAll(async () => {
    await app?.stop();
  });

  it.each<[string, unknown, string, RegExp]>([
    ["both", { header: "x-a", jsonPath: "a" }, "eventTypeSource", /exactly one of `header` and `jsonPath`/],
    ["neither", {}, "eventTypeSource", /exactly one/],
    ["an unknown field", { header: "x-a", path: "a" }, "eventTypeSource.path", /./],
    ["a header with a space", { header: "x event" }, "eventTypeSource.header", /header name/],
    ["a header with a colon", { header: "x-event:" }, "eventTypeSource.header", /header name/],
    ["an empty header", { header: "" }, "eventTypeSource.header", /header name/],
    ["a long header", { header: "x".repeat(101) }, "eventTypeSource.header", /at most 100/],
    ["an empty path", { jsonPath: "" }, "eventTypeSource.jsonPath", /joined by dots/],
    ["an empty segment", { jsonPath: "data..type" }, "eventTypeSource.jsonPath", /joined by dots/],
    ["a trailing dot", { jsonPath: "data." }, "eventTypeSource.jsonPath", /joined by dots/],
    ["17 segments", { jsonPath: Array(17).fill("a").join(".") }, "eventTypeSource.jsonPath", /at most 16/],
    ["a control character", { jsonPath: "a\nb" }, "eventTypeSource.jsonPath", /joined by dots/],
    ["a long path", { jsonPath: "a".repeat(201) }, "eventTypeSource.jsonPath", /at most 200/],
    ["a string", "x-event", "eventTypeSource", /./],
  ])("refuses %s with a 400 naming the field, on create and on PATCH", async (_name, source, path, message) => {
    const created = await requestApi(app.baseUrl, key, "POST", "/v1/webhook-endpoints", {
      name: "Bad",
      eventTypeSource: source,
    });
    expect(created.status, created.text).toBe(400);
    expect(errorOf(created.json).code).toBe("validation_error");
    expect(detailPaths(created.json)).toEqual([path]);
    expect(errorOf(created.json).details?.[0]?.message).toMatch(message);

    const endpoint = await createEndpoint({ name: "Good" });
    const patched = await requestApi(app.baseUrl, key, "PATCH", `/v1/webhook-endpoints/${endpoint.id}`, {
      eventTypeSource: source,
    });
    expect(patched.status, patched.text).toBe(400);
    expect(detailPaths(patched.json)).toEqual([path]);
  });

  it("keeps a path as given and leaves the source null unless set", async () => {
    expect((await createEndpoint({ name: "None" })).eventTypeSource).toBeNull();
    const endpoint = await createEndpoint({ name: "Path", eventTypeSource: { jsonPath: "events.0.Type" } });
    expect(endpoint.eventTypeSource).toEqual({ jsonPath: "events.0.Type" });
    const read = await client.call(getWebhookEndpointContract, { params: { id: endpoint.id } });
    expect(read.data.eventTypeSource).toEqual({ jsonPath: "events.0.Type" });
  });
});
