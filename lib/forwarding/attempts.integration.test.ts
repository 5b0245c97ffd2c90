import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createWorkspace } from "@/lib/auth/workspaces";
import { ATTEMPT_RESPONSE_BYTES, MAX_LISTED_ATTEMPTS, MAX_LISTED_FORWARDS } from "@/lib/contracts/forwarding";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors";
import { createId } from "@/lib/ids";
import { listDeliveryAttempts } from "./attempts";
import { createDestination } from "./destinations";

// A delivery's forwards and attempts as the API lists them: order, bounds, response bodies as text, and 404 for a
// delivery that is not the workspace's.

const BASE = Date.parse("2026-03-01T12:00:00.000Z");
let tenants = 0;

async function newDelivery() {
  const workspace = await createWorkspace({ name: `Attempts ${++tenants}` });
  const endpoint = await db().webhookEndpoint.create({
    data: { id: createId("we"), workspaceId: workspace.id, name: "e" },
  });
  const destination = await createDestination({
    workspaceId: workspace.id,
    endpointId: endpoint.id,
    input: { url: "https://a.example/in" },
  });
  const deliveryId = randomUUID();
  await db().$executeRaw`
    INSERT INTO webhook_deliveries (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip,
                                    size_bytes, created_at)
    VALUES (${deliveryId}::uuid, ${workspace.id}, ${endpoint.id}, '\\x7b7d'::bytea, 'application/json', '{}'::jsonb,
            '203.0.113.7', 2, ${new Date(BASE)})`;
  return { workspaceId: workspace.id, endpointId: endpoint.id, destinationId: destination.id, deliveryId };
}

type Delivery = Awaited<ReturnType<typeof newDelivery>>;

async function addForward(delivery: Delivery, createdAt: Date, reason = "ingest"): Promise<string> {
  const [row] = await db().$queryRaw<{ id: string }[]>`
    INSERT INTO delivery_forwards (workspace_id, delivery_id, destination_id, delivery_created_at, reason, created_at)
    VALUES (${delivery.workspaceId}, ${delivery.deliveryId}::uuid, ${delivery.destinationId}, ${new Date(BASE)},
            ${reason}, ${createdAt})
    RETURNING id::text`;
  return row!.id;
}

async function addAttempt(
  delivery: Delivery,
  forwardId: string,
  number: number,
  fields: { startedAt: Date; status?: number; body?: Buffer; truncated?: boolean; error?: string },
) {
  await db().deliveryAttempt.create({
    data: {
      workspaceId: delivery.workspaceId,
      forwardId,
      deliveryId: delivery.deliveryId,
      destinationId: delivery.destinationId,
      attemptNumber: number,
      startedAt: fields.startedAt,
      durationMs: 12,
      responseStatus: fields.status ?? null,
      responseBody: fields.body ? new Uint8Array(fields.body) : null,
      responseBodyTruncated: fields.truncated ?? false,
      error: fields.error ?? null,
    },
  });
}

describe("a delivery's attempts", () => {
  it("lists forwards newest first and attempts oldest first, with what came back", async () => {
    const delivery = await newDelivery();
    const first = await addForward(delivery, new Date(BASE + 1_000));
    const replayed = await addForward(delivery, new Date(BASE + 60_000), "replay");
    await addAttempt(delivery, first, 1, { startedAt: new Date(BASE + 1_000), error: "connection refused" });
    await addAttempt(delivery, first, 2, {
      startedAt: new Date(BASE + 5_000),
      status: 503,
      body: Buffer.from("busy"),
    });
    await addAttempt(delivery, replayed, 1, { startedAt: new Date(BASE + 61_000), status: 200, body: Buffer.from("") });
    const listed = await listDeliveryAttempts(delivery);
    expect(listed.forwards.map((forward) => [forward.id, forward.reason])).toEqual([
      [replayed, "replay"],
      [first, "ingest"],
    ]);
    expect(listed.forwards[1]).toEqual({
      id: first,
      destinationId: delivery.destinationId,
      reason: "ingest",
      status: "pending",
      attemptCount: 0,
      nextAttemptAt: null,
      createdAt: new Date(BASE + 1_000).toISOString(),
      completedAt: null,
    });
    expect(
      listed.attempts.map(({ forwardId, attemptNumber, responseStatus, responseBody, error }) => ({
        forwardId,
        attemptNumber,
        responseStatus,
        responseBody,
        error,
      })),
    ).toEqual([
      { forwardId: first, attemptNumber: 1, responseStatus: null, responseBody: null, error: "connection refused" },
      { forwardId: first, attemptNumber: 2, responseStatus: 503, responseBody: "busy", error: null },
      { forwardId: replayed, attemptNumber: 1, responseStatus: 200, responseBody: "", error: null },
    ]);
    expect(listed.attempts[0]).toMatchObject({
      destinationId: delivery.destinationId,
      startedAt: new Date(BASE + 1_000).toISOString(),
      durationMs: 12,
      responseBodyTruncated: false,
    });
  });

  it("shows a response body as UTF-8 text, with U+FFFD where the bytes are not UTF-8 or were cut", async () => {
    const delivery = await newDelivery();
    const forward = await addForward(delivery, new Date(BASE));
    // "é" cut after its first byte at the bound, then bytes that are no UTF-8 at all.
    const kept = Buffer.concat([Buffer.alloc(ATTEMPT_RESPONSE_BYTES - 1, "a"), Buffer.from("é").subarray(0, 1)]);
    await addAttempt(delivery, forward, 1, { startedAt: new Date(BASE), status: 500, body: kept, truncated: true });
    await addAttempt(delivery, forward, 2, {
      startedAt: new Date(BASE + 1),
      status: 400,
      body: Buffer.from([0x6f, 0x6b, 0xff, 0xfe, 0x00, 0x21]),
    });
    const { attempts } = await listDeliveryAttempts(delivery);
    expect(attempts[0]!.responseBody).toBe(`${"a".repeat(ATTEMPT_RESPONSE_BYTES - 1)}\uFFFD`);
    expect(attempts[0]!.responseBodyTruncated).toBe(true);
    expect(attempts[1]!.responseBody).toBe("ok\uFFFD\uFFFD\u0000!");
  });

  it(`lists the latest ${MAX_LISTED_ATTEMPTS} attempts and ${MAX_LISTED_FORWARDS} forwards`, async () => {
    const delivery = await newDelivery();
    const forwards: string[] = [];
    for (let index = 0; index < MAX_LISTED_FORWARDS + 5; index += 1)
      forwards.push(await addForward(delivery, new Date(BASE + index * 1_000), "replay"));
    await db().$executeRaw`
      INSERT INTO delivery_attempts (workspace_id, forward_id, delivery_id, destination_id, attempt_number, started_at,
                                     duration_ms)
      SELECT ${delivery.workspaceId}, ${forwards[0]!}::uuid, ${delivery.deliveryId}::uuid, ${delivery.destinationId}, n,
             ${new Date(BASE)}::timestamptz + n * interval '1 second', 1
      FROM generate_series(1, ${MAX_LISTED_ATTEMPTS + 7}::int) AS n`;
    const listed = await listDeliveryAttempts(delivery);
    expect(listed.forwards.map((forward) => forward.id)).toEqual(forwards.slice(5).reverse());
    expect(listed.attempts.map((attempt) => attempt.attemptNumber)).toEqual(
      Array.from({ length: MAX_LISTED_ATTEMPTS }, (_, index) => index + 8),
    );
  });

  it("answers a delivery without forwards with empty lists", async () => {
    const delivery = await newDelivery();
    expect(await listDeliveryAttempts(delivery)).toEqual({ forwards: [], attempts: [] });
  });

  it("answers 404 for another workspace's delivery, an unknown one and a malformed id", async () => {
    const a = await newDelivery();
    const b = await newDelivery();
    await addAttempt(a, await addForward(a, new Date(BASE)), 1, { startedAt: new Date(BASE), status: 200 });
    for (const deliveryId of [a.deliveryId, randomUUID(), "not-a-uuid"]) {
      const error = await listDeliveryAttempts({ workspaceId: b.workspaceId, deliveryId }).catch((thrown) => thrown);
      expect(error, deliveryId).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("not_found");
    }
  });
});
