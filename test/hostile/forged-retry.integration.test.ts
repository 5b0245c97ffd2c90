import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { db } from "@/lib/db/client";
import type { SignatureResult } from "@/lib/inbox/signatures";
import { startApp, type RunningApp } from "@/test/app-server";
import { INGEST_PATHS } from "@/test/ingest-paths";
import { WEBHOOK_SIGNERS, type WebhookSigner } from "@/test/webhook-signers";

/*
 * Issue #18, item 0: a forged retry must never drop a genuine delivery. An attacker who knows (or guesses) a sender's
 * next message id sends it first with a wrong signature, or sends it after the genuine one, or races it; on an
 * endpoint that stores invalid signatures (the default) the genuine, correctly signed delivery must still be stored
 * and answered with its own id, on every scheme. A replayed genuine body with someone else's message id (its
 * signature still verifies where the scheme does not sign the id) must not claim that id either.
 */

const ROUNDS = 12;
const GENUINE_COPIES = 3;
const FORGED_COPIES = 3;

let app: RunningApp;
let apiKey: string;
let workspaceId: string;

async function createSignedEndpoint(signer: WebhookSigner): Promise<string> {
  const response = await fetch(`${app.baseUrl}/v1/webhook-endpoints`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      name: `${signer.scheme} sender`,
      signing: { scheme: signer.scheme, secret: signer.secret },
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** POSTs to the ingest address and expects 200; the delivery id it answered. */
async function ingestOk(hookId: string, body: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(`${app.baseUrl}/webhooks/ingest/${hookId}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  const answer = (await response.json()) as { received: boolean; deliveryId: string };
  expect(response.status, JSON.stringify(answer)).toBe(200);
  return answer.deliveryId;
}

/** One delivery as a consumer reads it through the API. */
async function readDelivery(id: string) {
  const response = await fetch(`${app.baseUrl}/v1/webhook-endpoints/deliveries/${id}`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(response.status).toBe(200);
  const { data } = (await response.json()) as { data: { rawPayload: unknown; signature: SignatureResult | null } };
  return data;
}

/** Every stored delivery of an endpoint carrying this sender message id. */
async function storedWithMessageId(endpointId: string, signer: WebhookSigner, messageId: string) {
  const rows = await db().webhookDelivery.findMany({
    where: { webhookEndpointId: endpointId },
    select: { id: true, rawBody: true, headers: true, signature: true },
  });
  return rows
    .filter((row) => (row.headers as Record<string, string>)[signer.messageIdHeader] === messageId)
    .map((row) => ({
      id: row.id,
      body: Buffer.from(row.rawBody).toString("utf8"),
      verified: (row.signature as SignatureResult | null)?.valid === true,
    }));
}

const eventBody = (label: string) => JSON.stringify({ id: `evt_${randomUUID()}`, type: "order.paid", label });

describe.each(INGEST_PATHS)("on the $name", (ingestPath) => {
  beforeAll(async () => {
    app = await startApp(ingestPath.env);
    workspaceId = (await createWorkspace({ name: "Forged retries" })).id;
    apiKey = (await createApiKey({ workspaceId, name: "forged retries", mode: "live" })).key;
  });

  afterAll(async () => {
    await app?.stop();
  });

  describe.each(WEBHOOK_SIGNERS)("$scheme: a forged retry never drops a genuine delivery", (signer) => {
    let endpointId: string;

    beforeAll(async () => {
      endpointId = await createSignedEndpoint(signer);
    });

    const genuine = (body: string, messageId: string) => signer.sign(body, { messageId });
    const forged = (body: string, messageId: string) => signer.sign(body, { messageId, secret: signer.wrongSecret });

    it("forged first, then genuine: the genuine one is stored and answered with its own id", async () => {
      const messageId = randomUUID();
      const forgedBody = eventBody("forged");
      const genuineBody = eventBody("genuine");
      const forgedId = await ingestOk(endpointId, forgedBody, await forged(forgedBody, messageId));
      const genuineId = await ingestOk(endpointId, genuineBody, await genuine(genuineBody, messageId));

      expect(genuineId).not.toBe(forgedId);
      expect(await readDelivery(genuineId)).toMatchObject({
        rawPayload: JSON.parse(genuineBody),
        signature: { scheme: signer.scheme, valid: true, reason: null },
      });
      expect((await readDelivery(forgedId)).signature).toEqual({
        scheme: signer.scheme,
        valid: false,
        reason: "mismatch",
      });
      // The genuine sender's own retry (signed afresh) is still a retry of the verified delivery.
      expect(await ingestOk(endpointId, genuineBody, await genuine(genuineBody, messageId))).toBe(genuineId);
      expect((await storedWithMessageId(endpointId, signer, messageId)).length).toBe(2);
    });

    it("genuine first, then forged: the forged one neither replaces nor hides it, nor learns its id", async () => {
      const messageId = randomUUID();
      const genuineBody = eventBody("genuine");
      const forgedBody = eventBody("forged");
      const genuineId = await ingestOk(endpointId, genuineBody, await genuine(genuineBody, messageId));
      const forgedId = await ingestOk(endpointId, forgedBody, await forged(forgedBody, messageId));

      expect(forgedId).not.toBe(genuineId);
      expect(await readDelivery(genuineId)).toMatchObject({
        rawPayload: JSON.parse(genuineBody),
        signature: { scheme: signer.scheme, valid: true, reason: null },
      });
      expect(await readDelivery(forgedId)).toMatchObject({
        rawPayload: JSON.parse(forgedBody),
        signature: { scheme: signer.scheme, valid: false, reason: "mismatch" },
      });
      expect(await ingestOk(endpointId, genuineBody, await genuine(genuineBody, messageId))).toBe(genuineId);
    });

    it("a genuine body replayed under the next message id does not claim that id", async () => {
      const earlierBody = eventBody("earlier");
      const earlierHeaders = await genuine(earlierBody, randomUUID());
      await ingestOk(endpointId, earlierBody, earlierHeaders);
      const nextId = randomUUID();
      const nextBody = eventBody("next");
      // The attacker copies the earlier request and swaps only the message id header.
      const replayId = await ingestOk(endpointId, earlierBody, { ...earlierHeaders, [signer.messageIdHeader]: nextId });
      const nextDeliveryId = await ingestOk(endpointId, nextBody, await genuine(nextBody, nextId));

      expect(nextDeliveryId).not.toBe(replayId);
      expect(await readDelivery(nextDeliveryId)).toMatchObject({
        rawPayload: JSON.parse(nextBody),
        signature: { scheme: signer.scheme, valid: true, reason: null },
      });
    });

    it(`keeps the genuine delivery through ${ROUNDS} rounds of forged and genuine copies racing`, async () => {
      let lost = 0;
      let genuineAnsweredWithOtherIds = 0;
      let forgedAnsweredWithGenuineId = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        const messageId = randomUUID();
        const genuineBody = eventBody(`genuine ${round}`);
        const replayed = eventBody(`replayed ${round}`);
        const replayedHeaders = { ...(await genuine(replayed, randomUUID())), [signer.messageIdHeader]: messageId };
        const requests = [
          ...Array.from({ length: GENUINE_COPIES }, async () => ({
            genuine: true,
            id: await ingestOk(endpointId, genuineBody, await genuine(genuineBody, messageId)),
          })),
          ...Array.from({ length: FORGED_COPIES }, async (_, copy) => {
            const forgedBody = eventBody(`forged ${round}.${copy}`);
            return { genuine: false, id: await ingestOk(endpointId, forgedBody, await forged(forgedBody, messageId)) };
          }),
          ingestOk(endpointId, replayed, replayedHeaders).then((id) => ({ genuine: false, id })),
        ];
        const answers = await Promise.all(requests);
        const stored = await storedWithMessageId(endpointId, signer, messageId);
        const kept = stored.filter((row) => row.verified && row.body === genuineBody);
        if (kept.length === 0) lost += 1;
        const genuineIds = new Set(answers.filter((answer) => answer.genuine).map((answer) => answer.id));
        if (genuineIds.size !== 1 || !kept.some((row) => genuineIds.has(row.id))) genuineAnsweredWithOtherIds += 1;
        if (answers.some((answer) => !answer.genuine && genuineIds.has(answer.id))) forgedAnsweredWithGenuineId += 1;
      }
      expect({ lost, genuineAnsweredWithOtherIds, forgedAnsweredWithGenuineId }).toEqual({
        lost: 0,
        genuineAnsweredWithOtherIds: 0,
        forgedAnsweredWithGenuineId: 0,
      });
    });
  });
});
