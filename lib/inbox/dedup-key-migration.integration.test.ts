import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "@/lib/auth/workspaces";
import { db, dbPool } from "@/lib/db/client";
import { signerFor } from "@/test/webhook-signers";
import { dedupKey } from "./dedup-key";
import { ingestDelivery } from "./ingest-delivery";
import { senderMessageId } from "./sender-message-id";
import { createWebhookEndpoint } from "./webhook-endpoints";

// The migration that moved existing deliveries to the dedup rule of lib/inbox/dedup-key.ts, run again on rows
// written the way ingest wrote them before it (the sender message id as the key, whatever the signature said).

const MIGRATION = path.join(
  process.cwd(),
  "prisma",
  "migrations",
  "20261125010000_verified_dedup_claims",
  "migration.sql",
);
const github = signerFor("github");
const VERIFIED = { scheme: "github", valid: true, reason: null } as const;
const FORGED = { scheme: "github", valid: false, reason: "mismatch" } as const;

let workspaceId: string;

beforeAll(async () => {
  workspaceId = (await createWorkspace({ name: "Dedup migration" })).id;
});

async function endpoint(signed: boolean): Promise<string> {
  const signing = signed ? { scheme: github.scheme, secret: github.secret, rejectInvalid: false } : undefined;
  return (await createWebhookEndpoint({ workspaceId, name: "sender", signing, baseUrl: "http://localhost" })).id;
}

/** A delivery row as ingest stored it before the migration. */
async function oldRow(endpointId: string, body: string, headers: Record<string, string>, signature: object | null) {
  const row = await db().webhookDelivery.create({
    data: {
      id: randomUUID(),
      workspaceId,
      webhookEndpointId: endpointId,
      rawBody: Buffer.from(body),
      contentType: "application/json",
      headers,
      sourceIp: "127.0.0.1",
      sizeBytes: Buffer.byteLength(body),
      dedupKey: senderMessageId(headers),
      signature: signature ?? undefined,
    },
    select: { id: true },
  });
  return row.id;
}

async function ingest(hookId: string, body: string, headers: Record<string, string>) {
  return ingestDelivery({
    hookId,
    headers: { "content-type": "application/json", ...headers },
    readBody: async () => Buffer.from(body),
    sourceIp: "127.0.0.1",
    query: "",
  });
}

const keyOf = async (id: string) =>
  (await db().webhookDelivery.findFirstOrThrow({ where: { id }, select: { dedupKey: true } })).dedupKey;

describe("migration 20261125010000_verified_dedup_claims", () => {
  it("frees the ids held by failed signatures and keeps verified deliveries matching their retries", async () => {
    const [signed, unsigned] = [await endpoint(true), await endpoint(false)];
    const forgedBody = '{"action":"forged"}';
    const genuineBody = '{"action":"opened"}';
    const forgedHeaders = { "x-github-delivery": randomUUID() };
    const genuineHeaders = { "x-github-delivery": randomUUID() };
    const unsignedHeaders = { "x-github-delivery": randomUUID() };
    const forged = await oldRow(signed, forgedBody, forgedHeaders, FORGED);
    const genuine = await oldRow(signed, genuineBody, genuineHeaders, VERIFIED);
    const plain = await oldRow(unsigned, genuineBody, unsignedHeaders, null);

    await dbPool().query(await readFile(MIGRATION, "utf8"));
    // Later, migration 20261128060000 moved the keys it found into claims of their own.
    await dbPool().query(
      `INSERT INTO delivery_dedup_claims (workspace_id, webhook_endpoint_id, dedup_key, delivery_id, delivery_created_at)
       SELECT workspace_id, webhook_endpoint_id, dedup_key, id, created_at
       FROM webhook_deliveries WHERE workspace_id = $1 AND dedup_key IS NOT NULL`,
      [workspaceId],
    );

    expect(await keyOf(forged)).toBeNull();
    expect(await keyOf(genuine)).toBe(dedupKey(genuineHeaders, Buffer.from(genuineBody), VERIFIED));
    expect(await keyOf(plain)).toBe(senderMessageId(unsignedHeaders));

    // The genuine sender's delivery with the id the forged row held is stored; its own retry of the old one matches.
    const claimed = forgedHeaders["x-github-delivery"];
    const stored = await ingest(signed, genuineBody, await github.sign(genuineBody, { messageId: claimed }));
    expect(stored).toMatchObject({ duplicate: false });
    expect(stored.deliveryId).not.toBe(forged);
    const retry = genuineHeaders["x-github-delivery"];
    expect(await ingest(signed, genuineBody, await github.sign(genuineBody, { messageId: retry }))).toEqual({
      deliveryId: genuine,
      duplicate: true,
    });
  });
});
