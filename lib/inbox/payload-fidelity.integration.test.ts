import { request as httpRequest } from "node:http";
import examples from "@octokit/webhooks-examples";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { createApiClient, type ApiClient } from "@/lib/client/api-client";
import { createWebhookEndpointContract } from "@/lib/contracts/webhooks";
import { startApp, type RunningApp } from "@/test/app-server";
import { answerText as answerTextOf, postWebhook } from "@/test/http-api";

// rawPayload is the sender's JSON text (README, Webhook inbox): over real HTTP, the text of every answer that carries
// a delivery holds the sent text verbatim (whitespace outside strings removed), never a re-serialisation.

let app: RunningApp;
let apiKey: string;
let api: ApiClient;
let endpointId: string;

const SENT = '{"action":"edited","zeta":1,"amount":12345678901234567890,"price":1.10,"dup":1,"dup":2,"10":0,"2":0}';

beforeAll(async () => {
  app = await startApp();
  const workspace = await createWorkspace({ name: "Payload fidelity" });
  apiKey = (await createApiKey({ workspaceId: workspace.id, name: "fidelity tests", mode: "live" })).key;
  api = createApiClient({ baseUrl: app.baseUrl, apiKey });
  const { data } = await api.call(createWebhookEndpointContract, { body: { name: "Fidelity" } });
  endpointId = data.id;
});

afterAll(async () => {
  await app?.stop();
});

const ingest = (body: string, contentType = "application/json") =>
  postWebhook(app.baseUrl, endpointId, body, { "content-type": contentType });

/** The answer's text, as sent: no JSON.parse between the wire and the assertion. */
const answerText = (path: string, init?: RequestInit) => answerTextOf(app.baseUrl, apiKey, path, init);

const payloadIn = (answer: string, id: string, payload: string) =>
  answer.includes(`{"id":"${id}","webhookEndpointId":"${endpointId}","workspaceId":`) &&
  answer.includes(`"rawPayload":${payload},"formFields":null,"contentDecoding":null,"headers":`);

describe("the sender's JSON text in every answer", () => {
  it("serves key order, number text, duplicate keys and escapes as sent, in the delivery, the listing and acks", async () => {
    const id = await ingest(SENT);
    const single = await answerText(`/v1/webhook-endpoints/deliveries/${id}`);
    expect(single).toContain(`"rawPayload":${SENT},`);
    expect(payloadIn(single, id, SENT)).toBe(true);

    const listing = await answerText(`/v1/webhook-endpoints/deliveries?endpointId=${endpointId}&limit=100`);
    expect(listing).toContain(`"rawPayload":${SENT},`);

    const acked = await answerText(`/v1/webhook-endpoints/deliveries/${id}/ack`, { method: "POST" });
    expect(acked).toContain(`"rawPayload":${SENT},`);
    const again = await answerText(`/v1/webhook-endpoints/deliveries/${id}/ack`, { method: "POST" });
    expect(again).toContain(`"rawPayload":${SENT},`);
  });

  it.each([
    ["pretty-printed", '{\n  "b": [1, 2.50],\r\n\t"a": "x y"\n}\n', '{"b":[1,2.50],"a":"x y"}'],
    ["escapes", '{"nul":"\\u0000","lone":"\\ud800","slash":"\\/","é":"\\u00e9"}', null],
    ["beyond a double", '{"n":1e400,"z":-0,"tiny":1e-400}', null],
    ["a top-level number", "1.10", null],
  ])("serves %s JSON as sent (whitespace outside strings removed)", async (_what, sent, compact) => {
    const id = await ingest(sent);
    const single = await answerText(`/v1/webhook-endpoints/deliveries/${id}`);
    expect(single).toContain(`"rawPayload":${compact ?? sent},`);
    expect(single).not.toMatch(/[\r\n]/);
  });

  it.each([
    ["vendor +json", "application/vnd.api+json", '{"b":1,"a":2}', '"rawPayload":{"b":1,"a":2},'],
    ["charset and case", "Application/JSON; charset=utf-8", '{"2":0,"1":0}', '"rawPayload":{"2":0,"1":0},'],
    ["invalid JSON", "application/json", '{"a":1,}', '"rawPayload":{"raw":"{\\"a\\":1,}"},'],
    ["text/plain", "text/plain", '{"b":1,"a":2}', '"rawPayload":{"raw":"{\\"b\\":1,\\"a\\":2}"},'],
    ["form", "application/x-www-form-urlencoded", "b=1&a=2", '"rawPayload":{"raw":"b=1&a=2"},'],
  ])("serves %s as documented", async (_what, type, sent, expected) => {
    const id = await ingest(sent, type);
    expect(await answerText(`/v1/webhook-endpoints/deliveries/${id}`)).toContain(expected);
  });

  it("serves every octokit example payload as sent, pretty or compact", async () => {
    const payloads = examples.flatMap((event) => event.examples.map((example) => ({ name: event.name, example })));
    expect(payloads.length).toBeGreaterThan(100);
    // A sample across the event kinds keeps the test quick; each one both pretty-printed and compact.
    const sample = payloads.filter((_, index) => index % Math.ceil(payloads.length / 40) === 0);
    for (const { name, example } of sample) {
      const compact = JSON.stringify(example);
      for (const sent of [compact, JSON.stringify(example, null, 2)]) {
        const id = await ingest(sent);
        const single = await answerText(`/v1/webhook-endpoints/deliveries/${id}`);
        expect(
          single.includes(`"rawPayload":${compact},"formFields":null,"contentDecoding":null,"headers":`),
          name,
        ).toBe(true);
      }
    }
  });
});

describe("form bodies decoded as fields", () => {
  async function delivery(id: string) {
    return (
      JSON.parse(await answerText(`/v1/webhook-endpoints/deliveries/${id}`)) as {
        data: { rawPayload: unknown; formFields: unknown };
      }
    ).data;
  }

  it("decodes a urlencoded body beside its { raw } payload", async () => {
    const sent = "token=abc&text=hello+world&user=%C3%A9&text=again";
    const { rawPayload, formFields } = await delivery(await ingest(sent, "application/x-www-form-urlencoded"));
    expect(rawPayload).toEqual({ raw: sent });
    expect(formFields).toEqual([
      { name: "token", value: "abc" },
      { name: "text", value: "hello world" },
      { name: "user", value: "é" },
      { name: "text", value: "again" },
    ]);
  });

  it("decodes a multipart body sent by fetch, file parts by name, filename, type and size", async () => {
    const form = new FormData();
    form.append("b", "first");
    form.append("attachment", new Blob([new Uint8Array(1000)], { type: "image/png" }), "pixel.png");
    form.append("a", "second");
    const response = await fetch(`${app.baseUrl}/webhooks/ingest/${endpointId}`, { method: "POST", body: form });
    const { deliveryId } = (await response.json()) as { deliveryId: string };
    const { rawPayload, formFields } = await delivery(deliveryId);
    expect(Object.keys(rawPayload as object)).toEqual(["raw"]);
    expect(formFields).toEqual([
      { name: "b", value: "first" },
      { name: "attachment", filename: "pixel.png", type: "image/png", size: 1000 },
      { name: "a", value: "second" },
    ]);
  });

  it("is null for JSON and for a multipart body that does not parse", async () => {
    expect((await delivery(await ingest('{"a":1}'))).formFields).toBeNull();
    expect((await delivery(await ingest("junk", "multipart/form-data; boundary=x"))).formFields).toBeNull();
  });
});

describe("/raw", () => {
  /** A POST over a raw node:http request, so the Content-Type bytes (≥ 0x80) go on the wire as they are. */
  function ingestWithLatin1Type(body: Buffer, contentType: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(`${app.baseUrl}/webhooks/ingest/${endpointId}`, {
        method: "POST",
        headers: { "content-type": contentType, "content-length": body.length },
      });
      request.on("response", (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode!));
      });
      request.on("error", reject);
      request.end(body);
    });
  }

  /** The response's header bytes for content-type, read from the socket (fetch would decode them). */
  function rawContentType(path: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(`${app.baseUrl}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
      request.on("response", (response) => {
        response.resume();
        const index = response.rawHeaders.findIndex((name, i) => i % 2 === 0 && name.toLowerCase() === "content-type");
        // rawHeaders are latin1 strings: one char per byte on the wire.
        resolve(Buffer.from(response.rawHeaders[index + 1]!, "latin1"));
      });
      request.on("error", reject);
      request.end();
    });
  }

  it("answers with the Content-Type byte for byte, also bytes ≥ 0x80", async () => {
    // Node sends a header string as latin1: one byte per character.
    const typeBytes = Buffer.from([...Buffer.from("text/plain; note="), 0xe9, 0xff, 0x80, ...Buffer.from("x")]);
    const body = Buffer.from("hello");
    expect(await ingestWithLatin1Type(body, typeBytes.toString("latin1"))).toBe(200);
    const listing = JSON.parse(await answerText(`/v1/webhook-endpoints/deliveries?endpointId=${endpointId}&limit=1`));
    const id = (listing as { data: { deliveries: { id: string }[] } }).data.deliveries[0]!.id;
    expect((await rawContentType(`/v1/webhook-endpoints/deliveries/${id}/raw`)).toString("hex")).toBe(
      typeBytes.toString("hex"),
    );
  });
});
