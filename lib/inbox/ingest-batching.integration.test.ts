import { beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { createWorkspace } from "@/lib/auth/workspaces";
import { db } from "@/lib/db/client";
import { ingestDelivery, type IngestedDelivery } from "./ingest-delivery";
import { createWebhookEndpoint, deleteWebhookEndpoint } from "./webhook-endpoints";

// Group commit on this file's database: concurrent ingests are written in shared multi-row INSERTs. Every request
// still gets its own delivery (or its own error) only after the commit. The requests' bodies are held back and
// released together, so that they reach the writer in the same moment and share batches.

let workspaceId: string;

beforeAll(async () => {
  workspaceId = (await createWorkspace({ name: "Group commit" })).id;
});

async function endpoint(name: string): Promise<string> {
  return (await createWebhookEndpoint({ workspaceId, name, baseUrl: "http://localhost" })).id;
}

/** Starts `count` ingests whose bodies arrive together once every endpoint lookup is done (and `beforeBodies` ran). */
async function ingestTogether(
  count: number,
  request: (index: number) => { hookId: string; headers?: Record<string, string> },
  beforeBodies?: () => Promise<void>,
) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let waiting = 0;
  const results = Array.from({ length: count }, (_, index) => {
    const { hookId, headers = {} } = request(index);
    return ingestDelivery({
      hookId,
      headers: { "content-type": "application/json", ...headers },
      readBody: async () => {
        waiting += 1;
        await gate;
        return Buffer.from(JSON.stringify({ index }));
      },
      sourceIp: "127.0.0.1",
      query: "",
    });
  });
  await expect.poll(() => waiting, { timeout: 10_000 }).toBe(count);
  await beforeBodies?.();
  release();
  return Promise.allSettled(results);
}

const fulfilled = (settled: PromiseSettledResult<IngestedDelivery>[]) =>
  settled.map((result) => {
    if (result.status !== "fulfilled") throw result.reason;
    return result.value;
  });

describe("group commit", () => {
  it("answers each request of a batch with its own committed delivery", async () => {
    const hookId = await endpoint("batched");
    const answers = fulfilled(await ingestTogether(12, () => ({ hookId })));
    expect(new Set(answers.map((answer) => answer.deliveryId)).size).toBe(12);
    expect(answers.every((answer) => !answer.duplicate)).toBe(true);
    const rows = await db().webhookDelivery.findMany({
      where: { webhookEndpointId: hookId },
      select: { id: true, rawBody: true, createdAt: true },
    });
    const bodyOf = new Map(rows.map((row) => [row.id, Buffer.from(row.rawBody).toString()]));
    answers.forEach((answer, index) => expect(JSON.parse(bodyOf.get(answer.deliveryId)!)).toEqual({ index }));
    // Rows written by one statement share its transaction's timestamp: fewer timestamps than rows means shared batches.
    expect(new Set(rows.map((row) => row.createdAt.getTime())).size).toBeLessThan(12);
  });

  it("stores one delivery for a message id repeated within and across batches", async () => {
    const hookId = await endpoint("repeats");
    const answers = fulfilled(await ingestTogether(14, () => ({ hookId, headers: { "webhook-id": "msg_repeated" } })));
    expect(new Set(answers.map((answer) => answer.deliveryId)).size).toBe(1);
    expect(answers.filter((answer) => !answer.duplicate)).toHaveLength(1);
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: hookId } })).toBe(1);
  });

  it("stores one delivery per message id when batches in flight together share several ids, in any order", async () => {
    const hookId = await endpoint("shared ids");
    const ids = ["msg_c", "msg_a", "msg_b"];
    const answers = fulfilled(
      await ingestTogether(30, (index) => ({ hookId, headers: { "webhook-id": ids[(index * 7) % 3]! } })),
    );
    const byMessage = new Map<string, Set<string>>();
    answers.forEach((answer, index) => {
      const id = ids[(index * 7) % 3]!;
      byMessage.set(id, (byMessage.get(id) ?? new Set()).add(answer.deliveryId));
    });
    expect([...byMessage.values()].map((deliveries) => deliveries.size)).toEqual([1, 1, 1]);
    expect(answers.filter((answer) => !answer.duplicate)).toHaveLength(3);
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: hookId } })).toBe(3);
  });

  it("fails only the requests whose endpoint was deleted meanwhile, when a batch mixes them with others", async () => {
    const kept = await endpoint("kept");
    const deleted = await endpoint("deleted");
    const settled = await ingestTogether(
      12,
      (index) => ({ hookId: index % 2 === 0 ? kept : deleted }),
      async () => void (await deleteWebhookEndpoint({ workspaceId, endpointId: deleted })),
    );
    settled.forEach((result, index) => {
      if (index % 2 === 0) expect(result.status).toBe("fulfilled");
      else
        expect(result.status === "rejected" && result.reason instanceof ApiError && result.reason.code).toBe(
          "not_found",
        );
    });
    const keptIds = settled.flatMap((result) => (result.status === "fulfilled" ? [result.value.deliveryId] : []));
    const rows = await db().webhookDelivery.findMany({ where: { webhookEndpointId: kept }, select: { id: true } });
    expect(rows.map((row) => row.id).sort()).toEqual([...keptIds].sort());
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: deleted } })).toBe(0);
  });
});
