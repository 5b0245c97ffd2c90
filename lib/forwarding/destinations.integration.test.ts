import { describe, expect, it } from "vitest";
import { createWorkspace } from "@/lib/auth/workspaces";
import { MAX_DESTINATIONS_PER_ENDPOINT } from "@/lib/contracts/forwarding";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors";
import { createId } from "@/lib/ids";
import { createDestination, deleteDestination, listDestinations, updateDestination } from "./destinations";

// Destinations on a real PostgreSQL: what is stored and shown, the per-endpoint cap, other workspaces' ids behaving as
// unknown ones, and `webhook_endpoints.forwarding` following the enabled destinations, also under concurrent changes.

let tenants = 0;

async function newEndpoint(): Promise<{ workspaceId: string; endpointId: string }> {
  const workspace = await createWorkspace({ name: `Destinations ${++tenants}` });
  const endpoint = await db().webhookEndpoint.create({
    data: { id: createId("we"), workspaceId: workspace.id, name: "e" },
  });
  return { workspaceId: workspace.id, endpointId: endpoint.id };
}

async function forwarding(endpointId: string): Promise<boolean> {
  return (await db().webhookEndpoint.findFirstOrThrow({ where: { id: endpointId } })).forwarding;
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const URL_A = "https://a.example/hooks";

describe("destinations", () => {
  it("creates one with defaults, a dst_ id and a whsec_ secret shown only at creation", async () => {
    const { workspaceId, endpointId } = await newEndpoint();
    const created = await createDestination({ workspaceId, endpointId, input: { url: URL_A } });
    expect(created).toMatchObject({
      endpointId,
      url: URL_A,
      headers: {},
      timeoutMs: 10_000,
      retry: { maxAttempts: 8, maxAgeSeconds: 86_400 },
      rateLimitPerSecond: null,
      autoAcknowledge: false,
      ordered: false,
      enabled: true,
      disabledReason: null,
      health: {
        failing: false,
        consecutiveFailures: 0,
        lastAttemptAt: null,
        lastSuccessAt: null,
        lastFailureAt: null,
        lastError: null,
      },
    });
    expect(created.id).toMatch(/^dst_[0-9A-Za-z]{30}$/);
    // 24 random bytes in base64: what Standard Webhooks libraries take after `whsec_`.
    expect(created.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const stored = await db().webhookDestination.findFirstOrThrow({ where: { id: created.id } });
    expect(stored.signingSecret).toBe(created.signingSecret);
    const { signingSecret, ...shown } = created;
    const listed = await listDestinations({ workspaceId, endpointId });
    expect(listed).toEqual([shown]);
    expect(JSON.stringify(listed)).not.toContain(signingSecret);
  });

  it("stores every setting given, header names lower-cased", async () => {
    const { workspaceId, endpointId } = await newEndpoint();
    const created = await createDestination({
      workspaceId,
      endpointId,
      input: {
        url: URL_A,
        headers: { Authorization: "Bearer x", "X-Team": "core" },
        timeoutMs: 2_500,
        retry: { maxAttempts: 3 },
        rateLimitPerSecond: 5,
        autoAcknowledge: true,
        ordered: true,
        enabled: false,
      },
    });
    expect(created).toMatchObject({
      headers: { authorization: "Bearer x", "x-team": "core" },
      timeoutMs: 2_500,
      retry: { maxAttempts: 3, maxAgeSeconds: 86_400 },
      rateLimitPerSecond: 5,
      autoAcknowledge: true,
      ordered: true,
      enabled: false,
    });
    expect(await forwarding(endpointId)).toBe(false);
  });

  it("lists oldest first", async () => {
    const { workspaceId, endpointId } = await newEndpoint();
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1)
      ids.push((await createDestination({ workspaceId, endpointId, input: { url: `${URL_A}/${index}` } })).id);
    expect((await listDestinations({ workspaceId, endpointId })).map((destination) => destination.id)).toEqual(ids);
  });

  it(`caps an endpoint at ${MAX_DESTINATIONS_PER_ENDPOINT} destinations, even when created at once`, async () => {
    const { workspaceId, endpointId } = await newEndpoint();
    const outcomes = await Promise.allSettled(
      Array.from({ length: MAX_DESTINATIONS_PER_ENDPOINT + 3 }, (_, index) =>
        createDestination({ workspaceId, endpointId, input: { url: `${URL_A}/${index}` } }),
      ),
    );
    const refused = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(refused).toHaveLength(3);
    for (const outcome of refused) expect((outcome.reason as ApiError).code).toBe("validation_error");
    expect(await db().webhookDestination.count({ where: { webhookEndpointId: endpointId } })).toBe(
      MAX_DESTINATIONS_PER_ENDPOINT,
    );
    // Another endpoint of the workspace has its own ten.
    const other = await db().webhookEndpoint.create({ data: { id: createId("we"), workspaceId, name: "other" } });
    await createDestination({ workspaceId, endpointId: other.id, input: { url: URL_A } });
  });

  it("changes only the fields sent; retry fields not sent keep their values", async () => {
    const { workspaceId, endpointId } = await newEndpoint();
    const created = await createDestination({
      workspaceId,
      endpointId,
      input: { url: URL_A, headers: { a: "1" }, retry: { maxAttempts: 4, maxAgeSeconds: 600 }, rateLimitPerSecond: 9 },
    });
    const changed = await updateDestination({
      workspaceId,
      endpointId,
      destinationId: created.id,
      changes: { url: "https://b.example/in", retry: { maxAgeSeconds: 3_600 }, rateLimitPerSecond: null },
    });
    expect(changed).toMatchObject({
      url: "https://b.example/in",
      headers: { a: "1" },
      retry: { maxAttempts: 4, maxAgeSeconds: 3_600 },
      rateLimitPerSecond: null,
    });
    expect(Date.parse(changed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
  });

  it("enabling a destination the service disabled clears the reason and its failure streak", async () => {
    const { workspaceId, endpointId } = await newEndpoint();
    const created = await createDestination({ workspaceId, endpointId, input: { url: URL_A } });
    const failedAt = new Date("2026-03-01T12:00:00.000Z");
    await db().webhookDestination.updateMany({
      where: { id: created.id },
      data: {
        enabled: false,
        disabledReason: "gone",
        consecutiveFailures: 4,
        lastFailureAt: failedAt,
        lastAttemptAt: failedAt,
        lastError: "410 Gone",
      },
    });
    const [gone] = await listDestinations({ workspaceId, endpointId });
    expect(gone).toMatchObject({
      enabled: false,
      disabledReason: "gone",
      health: { failing: true, consecutiveFailures: 4, lastFailureAt: failedAt.toISOString(), lastError: "410 Gone" },
    });
    // Disabling it again is no reason to forget why the service did.
    const still = await updateDestination({
      workspaceId,
      endpointId,
      destinationId: created.id,
      changes: { enabled: false },
    });
    expect(still.disabledReason).toBe("gone");
    const enabled = await updateDestination({
      workspaceId,
      endpointId,
      destinationId: created.id,
      changes: { enabled: true },
    });
    expect(enabled).toMatchObject({
      enabled: true,
      disabledReason: null,
      // The history stays: when it last failed, and why.
      health: { failing: false, consecutiveFailures: 0, lastFailureAt: failedAt.toISOString(), lastError: "410 Gone" },
    });
  });

  it("keeps a failing enabled destination's streak when `enabled: true` changes nothing", async () => {
    const { workspaceId, endpointId } = await newEndpoint();
    const created = await createDestination({ workspaceId, endpointId, input: { url: URL_A } });
    await db().webhookDestination.updateMany({ where: { id: created.id }, data: { consecutiveFailures: 2 } });
    const changed = await updateDestination({
      workspaceId,
      endpointId,
      destinationId: created.id,
      changes: { enabled: true, timeoutMs: 5_000 },
    });
    expect(changed.health).toMatchObject({ failing: true, consecutiveFailures: 2 });
  });

  it("deletes a destination with its forwards and their attempts", async () => {
    const { workspaceId, endpointId } = await newEndpoint();
    const kept = await createDestination({ workspaceId, endpointId, input: { url: URL_A } });
    const removed = await createDestination({ workspaceId, endpointId, input: { url: `${URL_A}/2` } });
    const deliveryId = crypto.randomUUID();
    for (const destination of [kept, removed]) {
      const [forward] = await db().$queryRaw<{ id: string }[]>`
        INSERT INTO delivery_forwards (workspace_id, delivery_id, destination_id, delivery_created_at)
        VALUES (${workspaceId}, ${deliveryId}::uuid, ${destination.id}, now()) RETURNING id::text`;
      await db().$executeRaw`
        INSERT INTO delivery_attempts (workspace_id, forward_id, delivery_id, destination_id, attempt_number, started_at, duration_ms)
        VALUES (${workspaceId}, ${forward!.id}::uuid, ${deliveryId}::uuid, ${destination.id}, 1, now(), 5)`;
    }
    expect(await deleteDestination({ workspaceId, endpointId, destinationId: removed.id })).toEqual({
      id: removed.id,
      deleted: true,
    });
    expect(await db().deliveryForward.findMany({ select: { destinationId: true }, where: { deliveryId } })).toEqual([
      { destinationId: kept.id },
    ]);
    expect(await db().deliveryAttempt.count({ where: { deliveryId } })).toBe(1);
    expect((await listDestinations({ workspaceId, endpointId })).map((destination) => destination.id)).toEqual([
      kept.id,
    ]);
    expect((await rejection(deleteDestination({ workspaceId, endpointId, destinationId: removed.id }))).code).toBe(
      "not_found",
    );
  });

  it("treats another workspace's endpoint and destination exactly like unknown ones", async () => {
    const a = await newEndpoint();
    const b = await newEndpoint();
    const destination = await createDestination({ ...a, input: { url: URL_A } });
    const attempts: [string, () => Promise<unknown>][] = [
      [
        "create on A's endpoint",
        () => createDestination({ workspaceId: b.workspaceId, endpointId: a.endpointId, input: { url: URL_A } }),
      ],
      ["list A's endpoint", () => listDestinations({ workspaceId: b.workspaceId, endpointId: a.endpointId })],
      [
        "change A's destination via A's endpoint",
        () =>
          updateDestination({
            workspaceId: b.workspaceId,
            endpointId: a.endpointId,
            destinationId: destination.id,
            changes: { url: "https://evil.example" },
          }),
      ],
      [
        "change A's destination via B's endpoint",
        () => updateDestination({ ...b, destinationId: destination.id, changes: { url: "https://evil.example" } }),
      ],
      [
        "delete A's destination via A's endpoint",
        () =>
          deleteDestination({ workspaceId: b.workspaceId, endpointId: a.endpointId, destinationId: destination.id }),
      ],
      ["delete A's destination via B's endpoint", () => deleteDestination({ ...b, destinationId: destination.id })],
      ["list an unknown endpoint", () => listDestinations({ workspaceId: b.workspaceId, endpointId: "we_unknown" })],
    ];
    for (const [what, attempt] of attempts) expect((await rejection(attempt())).code, what).toBe("not_found");
    const stored = await db().webhookDestination.findFirstOrThrow({ where: { id: destination.id } });
    expect(stored.url).toBe(URL_A);
    expect(await db().webhookDestination.count({ where: { workspaceId: b.workspaceId } })).toBe(0);
    // A destination of one of B's own endpoints is not found through another of B's endpoints either.
    const otherEndpoint = await db().webhookEndpoint.create({
      data: { id: createId("we"), workspaceId: a.workspaceId, name: "second" },
    });
    expect(
      (
        await rejection(
          updateDestination({
            workspaceId: a.workspaceId,
            endpointId: otherEndpoint.id,
            destinationId: destination.id,
            changes: { enabled: false },
          }),
        )
      ).code,
    ).toBe("not_found");
  });
});

describe("the endpoint's forwarding flag", () => {
  it("is true from the first enabled destination until the last is disabled or deleted", async () => {
    const { workspaceId, endpointId } = await newEndpoint();
    expect(await forwarding(endpointId)).toBe(false);
    const first = await createDestination({ workspaceId, endpointId, input: { url: URL_A, enabled: false } });
    expect(await forwarding(endpointId)).toBe(false);
    const second = await createDestination({ workspaceId, endpointId, input: { url: URL_A } });
    expect(await forwarding(endpointId)).toBe(true);
    await updateDestination({ workspaceId, endpointId, destinationId: first.id, changes: { enabled: true } });
    await updateDestination({ workspaceId, endpointId, destinationId: second.id, changes: { enabled: false } });
    expect(await forwarding(endpointId)).toBe(true);
    await updateDestination({ workspaceId, endpointId, destinationId: first.id, changes: { enabled: false } });
    expect(await forwarding(endpointId)).toBe(false);
    await updateDestination({ workspaceId, endpointId, destinationId: second.id, changes: { enabled: true } });
    expect(await forwarding(endpointId)).toBe(true);
    await deleteDestination({ workspaceId, endpointId, destinationId: second.id });
    expect(await forwarding(endpointId)).toBe(false);
  });

  it("ends right when two destinations are created and deleted at once, over and over", async () => {
    const { workspaceId, endpointId } = await newEndpoint();
    for (let round = 0; round < 15; round += 1) {
      const [one, two] = await Promise.all([
        createDestination({ workspaceId, endpointId, input: { url: `${URL_A}/1` } }),
        createDestination({ workspaceId, endpointId, input: { url: `${URL_A}/2` } }),
      ]);
      expect(await forwarding(endpointId)).toBe(true);
      // Deleting both at once: each decides from what the other left, in turn, so the last one out turns it off.
      await Promise.all([
        deleteDestination({ workspaceId, endpointId, destinationId: one.id }),
        deleteDestination({ workspaceId, endpointId, destinationId: two.id }),
      ]);
      expect(await forwarding(endpointId)).toBe(false);
      // One created while the other is deleted: one enabled destination remains, so it forwards.
      const three = await createDestination({ workspaceId, endpointId, input: { url: `${URL_A}/3` } });
      const [four] = await Promise.all([
        createDestination({ workspaceId, endpointId, input: { url: `${URL_A}/4` } }),
        deleteDestination({ workspaceId, endpointId, destinationId: three.id }),
      ]);
      expect(await forwarding(endpointId)).toBe(true);
      await deleteDestination({ workspaceId, endpointId, destinationId: four.id });
      expect(await forwarding(endpointId)).toBe(false);
    }
  });
});
