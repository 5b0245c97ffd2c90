import { brotliCompressSync, deflateRawSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { createApiClient, type ApiClient } from "@/lib/client/api-client";
import { createWebhookEndpointContract } from "@/lib/contracts/webhooks";
import { startApp, type RunningApp } from "@/test/app-server";
import { answerText as answerTextOf, postWebhook } from "@/test/http-api";

// Bodies sent with Content-Encoding (issue #20): over real HTTP, rawPayload and formFields are made from the decoded
// body and `contentDecoding` says so, `/raw` serves the bytes as sent, and a bomb is refused without failing the read.
// The page budget on small pages: delivery-page-decoded-bytes.integration.test.ts.

let app: RunningApp;
let apiKey: string;
let api: ApiClient;

const SENT = '{"action":"opened","amount":12345678901234567890,"price":1.10,"dup":1,"dup":2,"10":0,"2":0}';

beforeAll(async () => {
  app = await startApp();
  const workspace = await createWorkspace({ name: "Content encoding" });
  apiKey = (await createApiKey({ workspaceId: workspace.id, name: "encoding tests", mode: "live" })).key;
  api = createApiClient({ baseUrl: app.baseUrl, apiKey });
});

afterAll(async () => {
  await app?.stop();
});

const newEndpoint = async () =>
  (await api.call(createWebhookEndpointContract, { body: { name: "Compressed" } })).data.id;

const ingest = (endpointId: string, body: Uint8Array, headers: Record<string, string>) =>
  postWebhook(app.baseUrl, endpointId, body, headers);

/** The answer's text, as sent (the sender's JSON is spliced into it, so no JSON.parse before the assertion). */
const answerText = (path: string, init?: RequestInit) => answerTextOf(app.baseUrl, apiKey, path, init);

interface Shown {
  id: string;
  rawPayload?: unknown;
  formFields?: unknown;
  contentDecoding?: unknown;
}

const delivery = async (id: string) =>
  (JSON.parse(await answerText(`/v1/webhook-endpoints/deliveries/${id}`)) as { data: Shown }).data;

const listing = async (endpointId: string, query = "limit=100") =>
  (
    JSON.parse(await answerText(`/v1/webhook-endpoints/deliveries?endpointId=${endpointId}&${query}`)) as {
      data: { deliveries: Shown[]; nextCursor: string | null };
    }
  ).data;

/** Every page of an endpoint's listing, oldest first, following `nextCursor`. */
async function walk(endpointId: string): Promise<Shown[][]> {
  const pages: Shown[][] = [];
  let query = "limit=100&order=asc";
  for (;;) {
    const page = await listing(endpointId, query);
    pages.push(page.deliveries);
    if (page.nextCursor === null || pages.length > 10) return pages;
    query = `limit=100&order=asc&cursor=${encodeURIComponent(page.nextCursor)}`;
  }
}

describe("compressed bodies over HTTP", () => {
  it("shows a gzip JSON body decoded, as the sender wrote it, and serves /raw as sent", async () => {
    const endpointId = await newEndpoint();
    const compressed = gzipSync(SENT);
    const id = await ingest(endpointId, compressed, {
      "content-type": "application/json",
      "content-encoding": "gzip",
    });
    const decoded = `"rawPayload":${SENT},"formFields":null,"contentDecoding":{"encoding":"gzip","status":"decoded"},`;

    expect(await answerText(`/v1/webhook-endpoints/deliveries/${id}`)).toContain(decoded);
    expect(await answerText(`/v1/webhook-endpoints/deliveries?endpointId=${endpointId}&limit=100`)).toContain(decoded);
    expect(await answerText(`/v1/webhook-endpoints/deliveries/${id}/ack`, { method: "POST" })).toContain(decoded);

    const raw = await fetch(`${app.baseUrl}/v1/webhook-endpoints/deliveries/${id}/raw`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toBe("application/json");
    expect(Buffer.from(await raw.arrayBuffer()).equals(compressed)).toBe(true);

    // withPayload=false leaves it out with rawPayload.
    const [summary] = (await listing(endpointId, "withPayload=false")).deliveries;
    expect(summary).not.toHaveProperty("rawPayload");
    expect(summary).not.toHaveProperty("contentDecoding");
  });

  it("decodes a gzip urlencoded body into formFields", async () => {
    const endpointId = await newEndpoint();
    const form = "token=abc&text=hello+world&user=%C3%A9&text=again";
    const id = await ingest(endpointId, gzipSync(form), {
      "content-type": "application/x-www-form-urlencoded",
      "content-encoding": "gzip",
    });
    const shown = await delivery(id);
    expect(shown.rawPayload).toEqual({ raw: form });
    expect(shown.contentDecoding).toEqual({ encoding: "gzip", status: "decoded" });
    expect(shown.formFields).toEqual([
      { name: "token", value: "abc" },
      { name: "text", value: "hello world" },
      { name: "user", value: "é" },
      { name: "text", value: "again" },
    ]);
    expect((await listing(endpointId)).deliveries[0]!.formFields).toEqual(shown.formFields);
  });

  it("reads stacked, x-gzip and raw deflate codings from the stored header, any case", async () => {
    const endpointId = await newEndpoint();
    const sent = [
      ["GZIP, Br", brotliCompressSync(gzipSync(SENT)), "gzip, br"],
      ["x-gzip", gzipSync(SENT), "x-gzip"],
      ["deflate", deflateRawSync(SENT), "deflate"],
    ] as const;
    for (const [header, body, encoding] of sent) {
      const id = await ingest(endpointId, body, { "content-type": "application/json", "content-encoding": header });
      expect(await answerText(`/v1/webhook-endpoints/deliveries/${id}`), header).toContain(
        `"rawPayload":${SENT},"formFields":null,"contentDecoding":{"encoding":"${encoding}","status":"decoded"},`,
      );
    }
  });

  it("serves a bomb, a corrupt body and an unknown coding as stored, saying why, with 200", async () => {
    const endpointId = await newEndpoint();
    const bomb = gzipSync(Buffer.alloc(64 * 1_048_576)); // 64 KiB on the wire
    const cases = [
      [bomb, "gzip", "too_large"],
      [Buffer.from("not gzip"), "gzip", "invalid"],
      [gzipSync(SENT).subarray(0, 20), "gzip", "invalid"],
      [gzipSync(SENT), "compress", "unsupported"],
    ] as const;
    const ids: string[] = [];
    for (const [body, encoding, status] of cases) {
      const id = await ingest(endpointId, body, { "content-type": "application/json", "content-encoding": encoding });
      ids.push(id);
      const shown = await delivery(id);
      expect(shown.contentDecoding).toEqual({ encoding, status });
      // What the body showed before it was decoded at all: the stored bytes as text.
      expect(shown.rawPayload).toEqual({ raw: expect.any(String) as string });
      const raw = await fetch(`${app.baseUrl}/v1/webhook-endpoints/deliveries/${id}/raw`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      expect(Buffer.from(await raw.arrayBuffer()).equals(body)).toBe(true);
    }
    // Each failed decode counts its whole limit (4 MiB) against the page's 8 MiB budget: the listing holds them all,
    // over two pages.
    const pages = await walk(endpointId);
    expect(pages.map((page) => page.length)).toEqual([2, 2]);
    expect(pages.flat().map((shown) => shown.id)).toEqual(ids);
    expect(pages.flat().map((shown) => shown.contentDecoding)).toEqual(
      cases.map(([, encoding, status]) => ({ encoding, status })),
    );
  });

  it("stops a page at its decoded budget and continues from there (8 MiB: two 3 MiB bodies a page)", async () => {
    const endpointId = await newEndpoint();
    const big = (n: number) => JSON.stringify({ n, pad: "x".repeat(3 * 1_048_576) });
    for (let n = 0; n < 5; n++) {
      await ingest(endpointId, gzipSync(big(n)), { "content-type": "application/json", "content-encoding": "gzip" });
    }
    const pages = await walk(endpointId);
    for (const shown of pages.flat()) expect(shown.contentDecoding).toEqual({ encoding: "gzip", status: "decoded" });
    expect(pages.flat().map((shown) => (shown.rawPayload as { n: number }).n)).toEqual([0, 1, 2, 3, 4]);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
  });
});
