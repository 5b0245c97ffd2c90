import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createWorkspace } from "@/lib/auth/workspaces";
import { REPLAY_BY_FILTER_LIMIT } from "@/lib/contracts/forwarding";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors";
import { createId } from "@/lib/ids";
import { acknowledgeFilteredDeliveries } from "@/lib/inbox/acknowledge-filtered-deliveries";
import { createDestination, deleteDestination, updateDestination } from "./destinations";
import { replayDelivery, replayFilteredDeliveries } from "./replay";

// Replays on a real PostgreSQL: one delivery to one or every enabled destination, and the walk by filter, each step
// bounded, every match replayed once, with a job queued for every forward written.

const BASE = Date.parse("2026-03-01T12:00:00.000Z");
const at = (ms: number) => new Date(BASE + ms).toISOString();
let tenants = 0;

async function newEndpoint(workspaceId: string): Promise<string> {
  return (await db().webhookEndpoint.create({ data: { id: createId("we"), workspaceId, name: "e" } })).id;
}

async function newTenant() {
  const workspaceId = (await createWorkspace({ name: `Replay ${++tenants}` })).id;
  return { workspaceId, endpointA: await newEndpoint(workspaceId), endpointB: await newEndpoint(workspaceId) };
}

type Tenant = Awaited<ReturnType<typeof newTenant>>;

async function destination(tenant: Tenant, endpointId: string, enabled = true): Promise<string> {
  return (
    await createDestination({
      workspaceId: tenant.workspaceId,
      endpointId,
      input: { url: "https://a.example/in", enabled },
    })
  ).id;
}

/** `count` deliveries, row n received at BASE + n s, on endpoint B when n is odd (else A), body `{"n":n}`. */
async function seed(tenant: Tenant, count: number): Promise<string[]> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    INSERT INTO webhook_deliveries
      (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip, size_bytes, created_at)
    SELECT gen_random_uuid(), ${tenant.workspaceId},
           CASE WHEN n % 2 = 1 THEN ${tenant.endpointB} ELSE ${tenant.endpointA} END,
           convert_to('{"n":' || n || '}', 'UTF8'), 'application/json', '{"content-type":"application/json"}'::jsonb,
           '203.0.113.7', length('{"n":' || n || '}'), ${new Date(BASE)}::timestamptz + n * interval '1 second'
    FROM generate_series(0, ${count - 1}::int) AS n
    RETURNING id::text`;
  const byTime = await db().$queryRaw<{ id: string }[]>`
    SELECT id::text FROM webhook_deliveries WHERE id = ANY(${rows.map((row) => row.id)}::uuid[]) ORDER BY created_at`;
  return byTime.map((row) => row.id);
}

async function forwardsOf(workspaceId: string) {
  return db().$queryRaw<{ delivery_id: string; destination_id: string; reason: string; delivery_created_at: Date }[]>`
    SELECT delivery_id::text, destination_id, reason, delivery_created_at FROM delivery_forwards
    WHERE workspace_id = ${workspaceId} ORDER BY delivery_created_at, destination_id`;
}

/** The forwards every queued job names (a `forward-batch` job names the forwards one statement wrote). */
async function queuedForwardIds(): Promise<string[]> {
  const rows = await db().$queryRaw<{ payload: string }[]>`
    SELECT j.payload::text AS payload FROM graphile_worker._private_jobs j
    JOIN graphile_worker._private_tasks t ON t.id = j.task_id
    WHERE t.identifier IN ('forward', 'forward-batch')`;
  return rows.flatMap((row) => {
    const payload = JSON.parse(row.payload) as { forwardIds?: string[]; forwardId?: string };
    return payload.forwardIds ?? (payload.forwardId ? [payload.forwardId] : []);
  });
}

async function forwardIdsOf(workspaceId: string): Promise<string[]> {
  const rows = await db().deliveryForward.findMany({ select: { id: true }, where: { workspaceId } });
  return rows.map((row) => row.id);
}

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("replaying one delivery", () => {
  it("writes a replay forward to every enabled destination of its endpoint, each queued", async () => {
    const tenant = await newTenant();
    const one = await destination(tenant, tenant.endpointA);
    const two = await destination(tenant, tenant.endpointA);
    await destination(tenant, tenant.endpointA, false);
    await destination(tenant, tenant.endpointB);
    const [deliveryId] = await seed(tenant, 1);
    const queuedBefore = await queuedForwardIds();
    const forwards = await replayDelivery({ workspaceId: tenant.workspaceId, deliveryId: deliveryId! });
    expect(forwards.map((forward) => forward.destinationId)).toEqual([one, two]);
    for (const forward of forwards)
      expect(forward).toMatchObject({ reason: "replay", status: "pending", attemptCount: 0, completedAt: null });
    expect(await forwardsOf(tenant.workspaceId)).toEqual(
      [one, two].map((destinationId) => ({
        delivery_id: deliveryId,
        destination_id: destinationId,
        reason: "replay",
        delivery_created_at: new Date(BASE),
      })),
    );
    expect((await queuedForwardIds()).filter((id) => !queuedBefore.includes(id)).sort()).toEqual(
      forwards.map((forward) => forward.id).sort(),
    );
    // Again: a new forward each time, so each replay keeps its own attempts.
    await replayDelivery({ workspaceId: tenant.workspaceId, deliveryId: deliveryId! });
    expect(await forwardsOf(tenant.workspaceId)).toHaveLength(4);
  });

  it("writes one forward to the destination asked for", async () => {
    const tenant = await newTenant();
    await destination(tenant, tenant.endpointA);
    const chosen = await destination(tenant, tenant.endpointA);
    const [deliveryId] = await seed(tenant, 1);
    const forwards = await replayDelivery({
      workspaceId: tenant.workspaceId,
      deliveryId: deliveryId!,
      destinationId: chosen,
    });
    expect(forwards.map((forward) => forward.destinationId)).toEqual([chosen]);
    expect(await forwardsOf(tenant.workspaceId)).toHaveLength(1);
  });

  it("answers 404 for a destination of another endpoint or workspace, 400 when disabled or none is enabled", async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    const [onA, onB] = await seed(tenant, 2);
    const ofB = await destination(tenant, tenant.endpointB);
    const othersDestination = await destination(other, other.endpointA);
    const replay = (deliveryId: string, destinationId?: string, workspaceId = tenant.workspaceId) =>
      apiError(replayDelivery({ workspaceId, deliveryId, destinationId }));

    expect((await replay(onA!, ofB)).code).toBe("not_found");
    expect((await replay(onA!, othersDestination)).code).toBe("not_found");
    expect((await replay(onA!, "dst_unknown")).code).toBe("not_found");
    const none = await replay(onA!);
    expect([none.code, none.message]).toEqual([
      "validation_error",
      "The endpoint has no enabled destination to replay to.",
    ]);

    await updateDestination({
      workspaceId: tenant.workspaceId,
      endpointId: tenant.endpointB,
      destinationId: ofB,
      changes: { enabled: false },
    });
    const disabled = await replay(onB!, ofB);
    expect(disabled.code).toBe("validation_error");
    expect(disabled.details).toEqual([{ path: "destinationId", message: "destination is disabled" }]);
    expect((await replay(onB!)).code).toBe("validation_error");

    // Another workspace's delivery, an unknown one and a malformed id: the same 404.
    for (const deliveryId of [onA!, randomUUID(), "nope"]) {
      const error = await replay(deliveryId, undefined, other.workspaceId);
      expect(error.code, deliveryId).toBe("not_found");
      expect(error.message).toBe("No such delivery.");
    }
    expect(await forwardsOf(tenant.workspaceId)).toEqual([]);
    expect(await forwardsOf(other.workspaceId)).toEqual([]);
  });
});

describe("replaying while destinations are deleted", () => {
  it("leaves a destination deleted meanwhile out, never failing on its foreign key", async () => {
    const tenant = await newTenant();
    const ids = await seed(tenant, 40);
    for (let round = 0; round < 8; round += 1) {
      const doomed = await destination(tenant, tenant.endpointA);
      const kept = await destination(tenant, tenant.endpointA);
      const outcomes = await Promise.allSettled([
        replayFilteredDeliveries({ workspaceId: tenant.workspaceId, filter: { endpointId: tenant.endpointA } }),
        replayDelivery({ workspaceId: tenant.workspaceId, deliveryId: ids[0]! }),
        deleteDestination({ workspaceId: tenant.workspaceId, endpointId: tenant.endpointA, destinationId: doomed }),
      ]);
      for (const outcome of outcomes)
        expect(outcome.status, String((outcome as PromiseRejectedResult).reason)).toBe("fulfilled");
      await deleteDestination({ workspaceId: tenant.workspaceId, endpointId: tenant.endpointA, destinationId: kept });
    }
    expect(await forwardsOf(tenant.workspaceId)).toEqual([]);
  });
});

describe("replaying by filter", () => {
  it("walks every match once, oldest first, a bounded number per call, every forward queued once", async () => {
    const tenant = await newTenant();
    const onA = await destination(tenant, tenant.endpointA);
    const onB1 = await destination(tenant, tenant.endpointB);
    const onB2 = await destination(tenant, tenant.endpointB);
    const ids = await seed(tenant, 11);
    const queuedBefore = await queuedForwardIds();
    const steps: { replayedCount: number; hasMore: boolean }[] = [];
    let cursor: string | undefined;
    do {
      const step = await replayFilteredDeliveries({ workspaceId: tenant.workspaceId, filter: {}, cursor, limit: 4 });
      steps.push({ replayedCount: step.replayedCount, hasMore: step.hasMore });
      cursor = step.nextCursor ?? undefined;
    } while (cursor);
    expect(steps).toEqual([
      { replayedCount: 4, hasMore: true },
      { replayedCount: 4, hasMore: true },
      { replayedCount: 3, hasMore: false },
    ]);
    const forwards = await forwardsOf(tenant.workspaceId);
    // Six deliveries on A (one destination), five on B (two): each delivery replayed once to each.
    expect(forwards).toHaveLength(6 + 5 * 2);
    expect(forwards.map((forward) => forward.delivery_id)).toEqual(
      ids.flatMap((id, n) => (n % 2 === 1 ? [id, id] : [id])),
    );
    for (const [n, id] of ids.entries()) {
      const to = forwards.filter((forward) => forward.delivery_id === id).map((forward) => forward.destination_id);
      expect(to.sort()).toEqual(n % 2 === 1 ? [onB1, onB2].sort() : [onA]);
    }
    expect(forwards.every((forward) => forward.reason === "replay")).toBe(true);
    const queued = (await queuedForwardIds()).filter((id) => !queuedBefore.includes(id));
    expect(queued.sort()).toEqual((await forwardIdsOf(tenant.workspaceId)).sort());
  });

  it("says hasMore only when more than the bound match", async () => {
    const tenant = await newTenant();
    await destination(tenant, tenant.endpointA);
    await seed(tenant, 6);
    const filter = { endpointId: tenant.endpointA };
    expect(await replayFilteredDeliveries({ workspaceId: tenant.workspaceId, filter, limit: 3 })).toEqual({
      replayedCount: 3,
      hasMore: false,
      nextCursor: null,
    });
    expect(REPLAY_BY_FILTER_LIMIT).toBe(1_000);
  });

  it("keeps to the destination's endpoint with `destinationId`, and binds the cursor to it", async () => {
    const tenant = await newTenant();
    await destination(tenant, tenant.endpointA);
    const onB = await destination(tenant, tenant.endpointB);
    const other = await destination(tenant, tenant.endpointB);
    const ids = await seed(tenant, 8);
    const first = await replayFilteredDeliveries({
      workspaceId: tenant.workspaceId,
      filter: { since: at(0) },
      destinationId: onB,
      limit: 2,
    });
    expect(first).toMatchObject({ replayedCount: 2, hasMore: true });
    // The cursor is for that destination and filter only.
    for (const [destinationId, filter] of [
      [other, { since: at(0) }],
      [undefined, { since: at(0) }],
      [onB, { since: at(1_000) }],
    ] as const) {
      const error = await apiError(
        replayFilteredDeliveries({
          workspaceId: tenant.workspaceId,
          filter,
          destinationId,
          cursor: first.nextCursor!,
          limit: 2,
        }),
      );
      expect(error.details?.[0]?.path, String(destinationId)).toBe("cursor");
    }
    const second = await replayFilteredDeliveries({
      workspaceId: tenant.workspaceId,
      filter: { since: at(0) },
      destinationId: onB,
      cursor: first.nextCursor!,
      limit: 2,
    });
    expect(second).toEqual({ replayedCount: 2, hasMore: false, nextCursor: null });
    const forwards = await forwardsOf(tenant.workspaceId);
    expect(forwards.map((forward) => [forward.delivery_id, forward.destination_id])).toEqual(
      ids.filter((_, n) => n % 2 === 1).map((id) => [id, onB]),
    );
  });

  it("takes no cursor of an acknowledgement by the same filter", async () => {
    const tenant = await newTenant();
    await destination(tenant, tenant.endpointA);
    await seed(tenant, 3);
    const filter = { endpointId: tenant.endpointA };
    const acknowledged = await acknowledgeFilteredDeliveries({ workspaceId: tenant.workspaceId, filter, limit: 1 });
    expect(acknowledged.nextCursor).toEqual(expect.any(String));
    const error = await apiError(
      replayFilteredDeliveries({ workspaceId: tenant.workspaceId, filter, cursor: acknowledged.nextCursor! }),
    );
    expect(error.details?.[0]?.path).toBe("cursor");
  });

  it("walks content filters in windows, replaying only what matches", async () => {
    const tenant = await newTenant();
    await destination(tenant, tenant.endpointA);
    await destination(tenant, tenant.endpointB);
    const ids = await seed(tenant, 12);
    let cursor: string | undefined;
    let calls = 0;
    let replayed = 0;
    do {
      const step = await replayFilteredDeliveries({
        workspaceId: tenant.workspaceId,
        // `{"n":1…}`: n = 1 and 10, 11.
        filter: { q: '"n":1' },
        cursor,
        scanRows: 3,
      });
      replayed += step.replayedCount;
      cursor = step.nextCursor ?? undefined;
      calls += 1;
    } while (cursor);
    expect(calls).toBe(4);
    expect(replayed).toBe(3);
    expect((await forwardsOf(tenant.workspaceId)).map((forward) => forward.delivery_id)).toEqual([
      ids[1],
      ids[10],
      ids[11],
    ]);
  });

  it("passes over deliveries of endpoints with no enabled destination, without counting them", async () => {
    const tenant = await newTenant();
    await destination(tenant, tenant.endpointA);
    await destination(tenant, tenant.endpointB, false);
    await seed(tenant, 6);
    expect(await replayFilteredDeliveries({ workspaceId: tenant.workspaceId, filter: {} })).toEqual({
      replayedCount: 3,
      hasMore: false,
      nextCursor: null,
    });
  });

  it("refuses a walk with nothing to replay to, and foreign or disabled destinations", async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    await seed(tenant, 4);
    const replay = (filter: object, destinationId?: string) =>
      apiError(replayFilteredDeliveries({ workspaceId: tenant.workspaceId, filter, destinationId }));

    const nothing = await replay({});
    expect([nothing.code, nothing.message]).toEqual([
      "validation_error",
      "No endpoint of the workspace has an enabled destination to replay to.",
    ]);
    const onA = await destination(tenant, tenant.endpointA);
    const disabledOnB = await destination(tenant, tenant.endpointB, false);
    const othersOwn = await destination(other, other.endpointA);
    expect((await replay({ endpointId: tenant.endpointB })).code).toBe("validation_error");
    // Another workspace's endpoint: what an endpoint without destinations answers.
    expect((await replay({ endpointId: other.endpointA })).message).toBe(
      (await replay({ endpointId: tenant.endpointB })).message,
    );
    expect((await replay({}, othersOwn)).code).toBe("not_found");
    expect((await replay({}, "dst_unknown")).code).toBe("not_found");
    expect((await replay({}, disabledOnB)).details).toEqual([
      { path: "destinationId", message: "destination is disabled" },
    ]);
    expect((await replay({ endpointId: tenant.endpointB }, onA)).details?.[0]?.path).toBe("destinationId");
    await deleteDestination({ workspaceId: tenant.workspaceId, endpointId: tenant.endpointA, destinationId: onA });
    expect((await replay({}, onA)).code).toBe("not_found");
    expect(await forwardsOf(tenant.workspaceId)).toEqual([]);
    expect(await forwardsOf(other.workspaceId)).toEqual([]);
  });
});
