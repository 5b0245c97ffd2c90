import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { db } from "@/lib/db/client";
import { MAX_DELIVERY_BYTES } from "@/lib/inbox/payload";
import { createWebhookEndpoint } from "@/lib/inbox/webhook-endpoints";
import { changeEndpointDestinations } from "@/lib/forwarding/endpoint-forwarding";
import { newDestinationSecret } from "@/lib/forwarding/outgoing-request";
import { createId } from "@/lib/ids";
import { eventually, startReceiver } from "./forward-receiver";
import { watchApp } from "./openapi-conformance/record";

/*
 * Ingest without the launcher: the production build served by plain `next start` (as a deployment that does not run
 * server.ts would), on this file's database (migrated by the test setup), so webhooks reach the route handler
 * app/webhooks/ingest/[hookId]/route.ts. What differs from the launcher is what Next.js passes the handler (README,
 * "Two ingest paths"); what must not differ is checked here: exact bytes, 200 after the commit, the error bodies.
 */

const ROOT = path.resolve(import.meta.dirname, "..");

interface NextServer {
  baseUrl: string;
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `next start` on a free port; resolves once it is ready. */
async function startNext(env: Record<string, string>): Promise<NextServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    path.join(ROOT, "node_modules", ".bin", "next"),
    ["start", "--port", String(port), "--hostname", "127.0.0.1"],
    { cwd: ROOT, env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`next start did not get ready:\n${output}`)), 60_000);
    child.stdout?.on("data", () => {
      if (!/Ready in/.test(output)) return;
      clearTimeout(timer);
      resolve();
    });
    void exited.then(() => reject(new Error(`next start exited:\n${output}`)));
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await watchApp(baseUrl);
  return {
    baseUrl,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

let plain: NextServer;
let proxied: NextServer;
let apiKey: string;
let workspaceId: string;

beforeAll(async () => {
  // DATABASE_URL and SIGNALBOX_SECRET: this file's (test/database-per-file.ts). A second server where loopback is the
  // operator's trusted proxy, for the source address.
  [plain, proxied] = await Promise.all([startNext({}), startNext({ TRUSTED_PROXIES: "127.0.0.1" })]);
  workspaceId = (await createWorkspace({ name: "next start" })).id;
  apiKey = (await createApiKey({ workspaceId, name: "next start", mode: "live" })).key;
}, 90_000);

afterAll(async () => {
  await Promise.all([plain?.stop(), proxied?.stop()]);
});

const endpoint = (signing?: { scheme: "github"; secret: string; rejectInvalid: boolean }) =>
  createWebhookEndpoint({ workspaceId, name: "next start", baseUrl: plain.baseUrl, signing });

async function readDelivery(server: NextServer, id: string) {
  const response = await fetch(`${server.baseUrl}/v1/webhook-endpoints/deliveries/${id}`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { headers: Record<string, string>; sourceIp: string; query: string } })
    .data;
}

describe("ingest under next start, without the launcher", () => {
  it("stores a delivery byte for byte and answers 200 with its id once it is committed", async () => {
    const { id } = await endpoint();
    const body = Buffer.concat([Buffer.from('{"note":"café"}'), Buffer.from([0x00, 0xff])]);
    const response = await fetch(`${plain.baseUrl}/webhooks/ingest/${id}?attempt=1`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream", "x-sender": "Acme" },
      body,
    });
    expect(response.status).toBe(200);
    const { deliveryId } = (await response.json()) as { received: true; deliveryId: string };
    const row = await db().webhookDelivery.findFirstOrThrow({ where: { id: deliveryId } });
    expect(Buffer.from(row.rawBody).equals(body)).toBe(true);
    expect(row.webhookEndpointId).toBe(id);

    const delivery = await readDelivery(plain, deliveryId);
    expect(delivery.query).toBe("attempt=1");
    expect(delivery.headers).toMatchObject({ "content-type": "application/octet-stream", "x-sender": "Acme" });
  });

  it("believes no address a client can write without TRUSTED_PROXIES, and reads X-Forwarded-For through them", async () => {
    const { id } = await endpoint();
    const forged = { "x-forwarded-for": "203.0.113.7", "x-signalbox-source-ip": "198.51.100.1" };
    const post = (server: NextServer, headers: Record<string, string> = {}) =>
      fetch(`${server.baseUrl}/webhooks/ingest/${id}`, { method: "POST", headers, body: "x" })
        .then((response) => response.json() as Promise<{ deliveryId: string }>)
        .then(({ deliveryId }) => readDelivery(server, deliveryId));

    expect((await post(plain)).sourceIp).toBe("unknown");
    expect((await post(plain, forged)).sourceIp).toBe("unknown");
    // Loopback is the trusted proxy here: the hop it forwarded for, or itself (Next.js fills in the peer).
    expect((await post(proxied, forged)).sourceIp).toBe("203.0.113.7");
    expect((await post(proxied)).sourceIp).toBe("127.0.0.1");
  });

  it("answers refusals with the API's error body and stores nothing", async () => {
    const { id } = await endpoint();
    const signed = await endpoint({ scheme: "github", secret: "s3cret", rejectInvalid: true });
    const answer = async (target: string, init: RequestInit) => {
      const response = await fetch(`${plain.baseUrl}${target}`, init);
      return { status: response.status, allow: response.headers.get("allow"), body: await response.json() };
    };
    const error = (code: string) => ({ success: false, error: { code, message: expect.any(String) } });

    expect(await answer(`/webhooks/ingest/${id}`, { method: "GET" })).toEqual({
      status: 405,
      allow: "POST",
      body: error("method_not_allowed"),
    });
    expect(await answer("/webhooks/ingest/we_0000000000000000000000000000", { method: "POST", body: "x" })).toEqual({
      status: 404,
      allow: null,
      body: error("not_found"),
    });
    expect(await answer(`/webhooks/ingest/${signed.id}`, { method: "POST", body: "unsigned" })).toMatchObject({
      status: 401,
      body: error("unauthorized"),
    });
    expect(
      await answer(`/webhooks/ingest/${id}`, { method: "POST", body: new Uint8Array(MAX_DELIVERY_BYTES + 1) }),
    ).toMatchObject({ status: 413, body: error("payload_too_large") });
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: { in: [id, signed.id] } } })).toBe(0);
  });
});

describe("forwarding under next start, with `npm run forward-worker`", () => {
  it(
    "forwards a delivery the route handler stored, from a worker process of its own",
    { timeout: 60_000 },
    async () => {
      const receiver = await startReceiver();
      const worker = spawn(
        process.execPath,
        ["--import", "tsx", path.join(ROOT, "lib/launcher/forward-worker-command.ts")],
        {
          cwd: ROOT,
          env: { ...process.env, FORWARD_ALLOW_PRIVATE: "true" },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let output = "";
      worker.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
      worker.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => worker.once("exit", (code) => resolve(code)));
      try {
        const { id } = await endpoint();
        await changeEndpointDestinations(workspaceId, id, (tx) =>
          tx.webhookDestination.create({
            data: {
              id: createId("dst"),
              workspaceId,
              webhookEndpointId: id,
              url: receiver.url,
              signingSecret: newDestinationSecret(),
            },
          }),
        );
        const response = await fetch(`${plain.baseUrl}/webhooks/ingest/${id}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: '{"via":"next start"}',
        });
        expect(response.status).toBe(200);
        const { deliveryId } = (await response.json()) as { deliveryId: string };
        await eventually(async () => receiver.requests.length === 1, 30_000).catch((error: unknown) => {
          throw new Error(`${String(error)}; worker output:\n${output}`);
        });
        expect(receiver.requests[0]!.headers["webhook-id"]).toBe(deliveryId);
        expect(receiver.requests[0]!.body.toString()).toBe('{"via":"next start"}');
        worker.kill("SIGTERM");
        expect(await exited).toBe(0);
      } finally {
        if (worker.exitCode === null) worker.kill("SIGKILL");
        await receiver.close();
      }
    },
  );
});
