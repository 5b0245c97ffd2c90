import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "@/lib/auth/workspaces";
import { db, dbPool } from "@/lib/db/client";
import { changeEndpointDestinations } from "@/lib/forwarding/endpoint-forwarding";
import { newDestinationSecret } from "@/lib/forwarding/outgoing-request";
import { createId } from "@/lib/ids";
import { createWebhookEndpoint } from "@/lib/inbox/webhook-endpoints";
import { startApp, type RunningApp } from "@/test/app-server";
import { eventually, startReceiver, type Receiver } from "@/test/forward-receiver";
import { crash, report } from "./harness";

/*
 * kill -9 of an instance while its forwarding attempts are in flight: the receiver holds every request open, so the
 * killed instance's jobs are locked, half-sent, when it dies. A second instance must take them back (the liveness
 * sweep, lib/forwarding/worker-liveness.ts: within its 30 s grace and 10 s sweep, not graphile-worker's 4 hours) and
 * forward every delivery: at least once each, none lost.
 */

const DELIVERIES = 30;
const appEnv = { FORWARD_ALLOW_PRIVATE: "true", FORWARD_CONCURRENCY: "5" };

let receiver: Receiver;
const apps: RunningApp[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop().catch(() => null)));
  await receiver?.close();
});

describe("kill -9 of an instance with forwarding attempts in flight", () => {
  it(
    "loses no forward: another instance takes the dead one's jobs back and sends them",
    { timeout: 180_000 },
    async () => {
      const held: ServerResponse[] = [];
      receiver.answer = (_request, response) => void held.push(response);
      const first = await startApp(appEnv);
      apps.push(first);

      const workspaceId = (await createWorkspace({ name: "Forwarding crash" })).id;
      const endpoint = await createWebhookEndpoint({ workspaceId, name: "Orders", baseUrl: first.baseUrl });
      await changeEndpointDestinations(workspaceId, endpoint.id, (tx) =>
        tx.webhookDestination.create({
          data: {
            id: createId("dst"),
            workspaceId,
            webhookEndpointId: endpoint.id,
            url: receiver.url,
            signingSecret: newDestinationSecret(),
            timeoutMs: 30_000,
          },
        }),
      );
      const deliveryIds: string[] = [];
      for (let n = 0; n < DELIVERIES; n += 1) {
        const response = await fetch(`${first.baseUrl}/webhooks/ingest/${endpoint.id}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ n }),
        });
        expect(response.status).toBe(200);
        deliveryIds.push(((await response.json()) as { deliveryId: string }).deliveryId);
      }
      // Attempts in flight (held open by the receiver), and more jobs locked in the worker's local queue.
      await eventually(async () => receiver.requests.length >= 5);
      const { rows: lockedBefore } = await dbPool().query<{ n: number }>(
        `SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE locked_by IS NOT NULL`,
      );
      expect(lockedBefore[0]!.n).toBeGreaterThanOrEqual(5);

      const killed = await crash(first);
      for (const response of held.splice(0)) response.destroy();
      receiver.answer = (_request, response) => response.end("ok");
      const sentBeforeCrash = receiver.requests.length;
      const second = await startApp(appEnv);
      apps.push(second);
      const startedAt = Date.now();

      await eventually(async () => {
        const succeeded = await db().deliveryForward.count({ where: { workspaceId, status: "succeeded" } });
        return succeeded === DELIVERIES;
      }, 120_000);
      const recoveredInMs = Date.now() - startedAt;

      const received = new Set(receiver.requests.map((request) => String(request.headers["webhook-id"])));
      expect(deliveryIds.filter((id) => !received.has(id))).toEqual([]);
      const forwards = await db().deliveryForward.findMany({ where: { workspaceId } });
      expect(forwards).toHaveLength(DELIVERIES);
      expect(forwards.every((forward) => forward.status === "succeeded")).toBe(true);
      report("forwarding kill -9", {
        killed: killed.length,
        lockedWhenKilled: lockedBefore[0]!.n,
        requestsBeforeCrash: sentBeforeCrash,
        requestsInAll: receiver.requests.length,
        sentAgain: receiver.requests.length - DELIVERIES,
        recoveredInMs,
      });
    },
  );
});
