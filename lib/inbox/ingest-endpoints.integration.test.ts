import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "@/lib/auth/workspaces";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors";
import { signerFor } from "@/test/webhook-signers";
import { ingestDelivery } from "./ingest-delivery";
import { createWebhookEndpoint, deleteWebhookEndpoint, updateWebhookEndpoint } from "./webhook-endpoints";

// Ingest remembers endpoints it has seen (lib/inbox/ingest-endpoints.ts) and relies on the INSERT to check them again.
// Each test first sends one delivery so the endpoint is remembered, changes the endpoint behind ingest's back, and
// checks that the next delivery obeys the change: nothing is ever stored against settings that no longer hold.

const github = signerFor("github");
const BASE_URL = "http://localhost";
let workspaceId: string;

beforeAll(async () => {
  workspaceId = (await createWorkspace({ name: "Remembered endpoints" })).id;
});

function send(hookId: string, body: string, headers: Record<string, string> = {}) {
  return ingestDelivery({
    hookId,
    headers: { "content-type": "application/json", ...headers },
    readBody: async () => Buffer.from(body),
    sourceIp: "127.0.0.1",
    query: "",
  });
}

const signed = (body: string, secret: string) => github.sign(body, { secret });

async function errorOf(promise: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

const storedSignature = async (deliveryId: string) =>
  (await db().webhookDelivery.findFirstOrThrow({ where: { id: deliveryId }, select: { signature: true } })).signature;

describe("a remembered endpoint", () => {
  it("is not written to once disabled (404), and is again once re-enabled", async () => {
    const { id } = await createWebhookEndpoint({ workspaceId, name: "toggled", baseUrl: BASE_URL });
    await send(id, '{"n":1}');
    await updateWebhookEndpoint({ workspaceId, endpointId: id, changes: { enabled: false }, baseUrl: BASE_URL });
    expect((await errorOf(send(id, '{"n":2}'))).code).toBe("not_found");
    await updateWebhookEndpoint({ workspaceId, endpointId: id, changes: { enabled: true }, baseUrl: BASE_URL });
    await send(id, '{"n":3}');
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: id } })).toBe(2);
  });

  it("is not written to once deleted (404)", async () => {
    const { id } = await createWebhookEndpoint({ workspaceId, name: "deleted", baseUrl: BASE_URL });
    await send(id, '{"n":1}');
    await deleteWebhookEndpoint({ workspaceId, endpointId: id });
    expect((await errorOf(send(id, '{"n":2}'))).code).toBe("not_found");
  });

  it("checks signatures with the secret it has now, not the one it had when remembered", async () => {
    const signing = { scheme: github.scheme, secret: github.secret, rejectInvalid: false };
    const { id } = await createWebhookEndpoint({ workspaceId, name: "rotated", signing, baseUrl: BASE_URL });
    const first = await send(id, '{"n":1}', await signed('{"n":1}', github.secret));
    expect(await storedSignature(first.deliveryId)).toMatchObject({ valid: true });

    const rotated = `${github.secret}-rotated`;
    await updateWebhookEndpoint({
      workspaceId,
      endpointId: id,
      changes: { signing: { ...signing, secret: rotated } },
      baseUrl: BASE_URL,
    });
    const withOld = await send(id, '{"n":2}', await signed('{"n":2}', github.secret));
    expect(await storedSignature(withOld.deliveryId)).toMatchObject({ valid: false });
    const withNew = await send(id, '{"n":3}', await signed('{"n":3}', rotated));
    expect(await storedSignature(withNew.deliveryId)).toMatchObject({ valid: true });
  });

  it("starts rejecting invalid signatures (401) as soon as the endpoint is told to", async () => {
    const signing = { scheme: github.scheme, secret: github.secret, rejectInvalid: false };
    const { id } = await createWebhookEndpoint({ workspaceId, name: "strict", signing, baseUrl: BASE_URL });
    await send(id, '{"n":1}', { "x-hub-signature-256": "sha256=00" });
    await updateWebhookEndpoint({
      workspaceId,
      endpointId: id,
      changes: { signing: { ...signing, rejectInvalid: true } },
      baseUrl: BASE_URL,
    });
    expect((await errorOf(send(id, '{"n":2}', { "x-hub-signature-256": "sha256=00" }))).code).toBe("unauthorized");
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: id } })).toBe(1);
  });
});
