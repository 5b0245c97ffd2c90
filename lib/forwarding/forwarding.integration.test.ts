import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createWorkspace } from "@/lib/auth/workspaces";
import { db, dbPool } from "@/lib/db/client";
import { createId } from "@/lib/ids";
import { ingestDelivery } from "@/lib/inbox/ingest-delivery";
import { createWebhookEndpoint } from "@/lib/inbox/webhook-endpoints";
import { createWebhookSender } from "@/lib/outbound/webhook-sender";
import { eventually, startReceiver, type Receiver } from "@/test/forward-receiver";
import { changeEndpointDestinations } from "./endpoint-forwarding";
import { startForwardWorker, type ForwardWorker } from "./forward-worker";
import { newDestinationSecret } from "./outgoing-request";

// The forwarding engine end to end on a real PostgreSQL: deliveries ingested through the domain code, their forwards
// queued by the trigger, run by a real graphile-worker, sent over real HTTP to a receiver on 127.0.0.1.

let worker: ForwardWorker;
let receiver: Receiver;
let workspaceId: string;

beforeAll(async () => {
  worker = await startForwardWorker({
    connectionString: process.env.DATABASE_URL!,
    concurrency: 4,
    sender: createWebhookSender({ allowance: { private: true, ranges: [] } }),
  });
  workspaceId = (await createWorkspace({ name: "Forwarding" })).id;
});

afterAll(async () => {
  await worker?.stop();
});

beforeEach(async () => {
  receiver = await startReceiver();
});

afterEach(async () => {
  await receiver.close();
});

async function newEndpoint(): Promise<string> {
  const endpoint = await createWebhookEndpoint({ workspaceId, name: "Orders", baseUrl: "http://localhost" });
  return endpoint.id;
}

async function addDestination(
  endpointId: string,
  settings: { url?: string; maxAttempts?: number; autoAcknowledge?: boolean; ordered?: boolean } = {},
): Promise<{ id: string; secret: string }> {
  const secret = newDestinationSecret();
  const id = createId("dst");
  await changeEndpointDestinations(workspaceId, endpointId, (tx) =>
    tx.webhookDestination.create({
      data: {
        id,
        workspaceId,
        webhookEndpointId: endpointId,
        url: settings.url ?? receiver.url,
        signingSecret: secret,
        maxAttempts: settings.maxAttempts ?? 8,
        autoAcknowledge: settings.autoAcknowledge ?? false,
        ordered: settings.ordered ?? false,
      },
    }),
  );
  return { id, secret };
}

async function ingest(endpointId: string, body: string, headers: Record<string, string> = {}): Promise<string> {
  const { deliveryId } = await ingestDelivery({
    hookId: endpointId,
    headers: { "content-type": "application/json", ...headers },
    readBody: async () => Buffer.from(body),
    sourceIp: "203.0.113.9",
    query: "",
  });
  return deliveryId;
}

async function forwardsOf(deliveryId: string) {
  return db().deliveryForward.findMany({ where: { workspaceId, deliveryId }, orderBy: { createdAt: "asc" } });
}

async function attemptsOf(deliveryId: string) {
  return db().deliveryAttempt.findMany({ where: { workspaceId, deliveryId }, orderBy: { attemptNumber: "asc" } });
}

/** Makes every waiting retry due now (the schedule's first wait is 10 s): time travel in the queue. */
async function retriesDueNow(): Promise<void> {
  await dbPool().query(`UPDATE delivery_forwards SET next_attempt_at = now() WHERE next_attempt_at > now()`);
  await dbPool().query(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE run_at > now()`);
  await dbPool().query(`SELECT pg_notify('jobs:insert', '{"count":1}')`);
}

describe("forwarding", { timeout: 60_000 }, () => {
  it("sends the exact bytes and the sender's headers, signed, and records the attempt", async () => {
    const endpointId = await newEndpoint();
    const destination = await addDestination(endpointId);
    const body = '{"type":"invoice.paid","amount":1.50,"note":"caf\u00e9"}';
    const deliveryId = await ingest(endpointId, body, { "x-shop": "north", "stripe-signature": "t=1,v1=abc" });

    await eventually(async () => (await forwardsOf(deliveryId))[0]?.status === "succeeded");
    expect(receiver.requests).toHaveLength(1);
    const [sent] = receiver.requests;
    expect(sent!.body.toString()).toBe(body);
    expect(sent!.headers["x-shop"]).toBe("north");
    expect(sent!.headers["stripe-signature"]).toBe("t=1,v1=abc");
    expect(sent!.headers["webhook-id"]).toBe(deliveryId);
    const verified = new Webhook(destination.secret).verify(body, {
      "webhook-id": String(sent!.headers["webhook-id"]),
      "webhook-timestamp": String(sent!.headers["webhook-timestamp"]),
      "webhook-signature": String(sent!.headers["webhook-signature"]),
    });
    expect(verified).toEqual(JSON.parse(body));

    const [attempt] = await attemptsOf(deliveryId);
    expect(attempt).toMatchObject({ attemptNumber: 1, responseStatus: 200, error: null });
    expect(Buffer.from(attempt!.responseBody!).toString()).toBe("ok");
    const health = await db().webhookDestination.findFirstOrThrow({ where: { id: destination.id } });
    expect(health.consecutiveFailures).toBe(0);
    expect(health.lastSuccessAt).not.toBeNull();
  });

  it("retries a failed attempt on the schedule, then succeeds", async () => {
    const endpointId = await newEndpoint();
    const destination = await addDestination(endpointId);
    receiver.answer = (_request, response) => {
      response.statusCode = receiver.requests.length === 1 ? 500 : 200;
      response.end(receiver.requests.length === 1 ? "try later" : "ok");
    };
    const deliveryId = await ingest(endpointId, '{"n":1}');

    const [pending] = await eventually(async () => {
      const forwards = await forwardsOf(deliveryId);
      return forwards[0]?.attemptCount === 1 ? forwards : undefined;
    });
    expect(pending!.status).toBe("pending");
    const waitMs = pending!.nextAttemptAt!.getTime() - Date.now();
    expect(waitMs).toBeGreaterThan(5_000); // 10 s ± 25%, less the time since
    const failing = await db().webhookDestination.findFirstOrThrow({ where: { id: destination.id } });
    expect(failing).toMatchObject({ consecutiveFailures: 1, lastError: "HTTP 500" });

    await retriesDueNow();
    await eventually(async () => (await forwardsOf(deliveryId))[0]?.status === "succeeded");
    expect((await attemptsOf(deliveryId)).map((attempt) => attempt.responseStatus)).toEqual([500, 200]);
    const healed = await db().webhookDestination.findFirstOrThrow({ where: { id: destination.id } });
    expect(healed.consecutiveFailures).toBe(0);
  });

  it("marks a forward failed once maxAttempts attempts failed", async () => {
    const endpointId = await newEndpoint();
    await addDestination(endpointId, { maxAttempts: 2 });
    receiver.answer = (_request, response) => {
      response.statusCode = 503;
      response.end();
    };
    const deliveryId = await ingest(endpointId, '{"n":2}');
    await eventually(async () => (await forwardsOf(deliveryId))[0]?.attemptCount === 1);
    await retriesDueNow();
    const [failed] = await eventually(async () => {
      const forwards = await forwardsOf(deliveryId);
      return forwards[0]?.status === "failed" ? forwards : undefined;
    });
    expect(failed!.attemptCount).toBe(2);
    expect((await attemptsOf(deliveryId)).at(-1)!.error).toBe("retries exhausted");
    expect(receiver.requests).toHaveLength(2);
  });

  it("disables a destination that answers 410, and the endpoint stops writing forwards", async () => {
    const endpointId = await newEndpoint();
    const destination = await addDestination(endpointId);
    receiver.answer = (_request, response) => {
      response.statusCode = 410;
      response.end("gone");
    };
    const first = await ingest(endpointId, '{"n":3}');
    await eventually(async () => (await forwardsOf(first))[0]?.status === "failed");
    const disabled = await db().webhookDestination.findFirstOrThrow({ where: { id: destination.id } });
    expect(disabled).toMatchObject({ enabled: false, disabledReason: "gone" });
    const endpoint = await db().webhookEndpoint.findFirstOrThrow({ where: { id: endpointId } });
    expect(endpoint.forwarding).toBe(false);

    const second = await ingest(endpointId, '{"n":4}');
    expect(await forwardsOf(second)).toHaveLength(0);
  });

  it("acknowledges a delivery once every enabled destination accepted it", async () => {
    const endpointId = await newEndpoint();
    const other = await startReceiver();
    try {
      await addDestination(endpointId, { autoAcknowledge: true });
      await addDestination(endpointId, { url: other.url, autoAcknowledge: true });
      other.answer = (_request, response) => {
        response.statusCode = other.requests.length === 1 ? 502 : 204;
        response.end();
      };
      const deliveryId = await ingest(endpointId, '{"n":5}');
      await eventually(async () => {
        const forwards = await forwardsOf(deliveryId);
        return forwards.some((forward) => forward.status === "succeeded") && forwards.some((f) => f.attemptCount === 1);
      });
      const halfway = await db().webhookDelivery.findFirstOrThrow({ where: { id: deliveryId } });
      expect(halfway.acknowledgedAt).toBeNull();

      await retriesDueNow();
      await eventually(async () => (await forwardsOf(deliveryId)).every((forward) => forward.status === "succeeded"));
      // The acknowledgement follows the last success's commit, in a statement of its own.
      await eventually(
        async () =>
          (await db().webhookDelivery.findFirstOrThrow({ where: { id: deliveryId } })).acknowledgedAt !== null,
      );
    } finally {
      await other.close();
    }
  });

  it("sends an ordered destination's deliveries one at a time, oldest first, waiting out a retry", async () => {
    const endpointId = await newEndpoint();
    await addDestination(endpointId, { ordered: true });
    let failuresLeft = 2;
    receiver.answer = (request, response) => {
      const failing = JSON.parse(request.body.toString()).n === 0 && failuresLeft-- > 0;
      response.statusCode = failing ? 500 : 200;
      response.end();
    };
    const ids: string[] = [];
    for (let n = 0; n < 6; n += 1) ids.push(await ingest(endpointId, JSON.stringify({ n })));

    for (let round = 0; round < 2; round += 1) {
      await eventually(async () => (await forwardsOf(ids[0]!))[0]?.attemptCount === round + 1);
      // While the head waits for its retry, nothing behind it is sent.
      expect(receiver.requests.map((request) => JSON.parse(request.body.toString()).n)).toEqual(
        Array(round + 1).fill(0),
      );
      await retriesDueNow();
    }
    await eventually(async () => {
      const all = await Promise.all(ids.map(forwardsOf));
      return all.every(([forward]) => forward?.status === "succeeded");
    });
    expect(receiver.requests.map((request) => JSON.parse(request.body.toString()).n)).toEqual([0, 0, 0, 1, 2, 3, 4, 5]);
  });
});
