import type { z } from "zod";
import { decodeCursor, encodeCursor } from "@/lib/cursor";
import { ApiError } from "@/lib/errors";
import type { webhookEndpointSchema } from "@/lib/contracts/webhooks";
import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import type { SignatureScheme as StoredScheme } from "@/lib/db/generated/enums";
import type { RetentionPolicy } from "@/lib/contracts/retention";
import type { Prisma } from "@/lib/db/generated/client";
import { createId } from "@/lib/ids";
import { countEndpointDeliveries } from "./endpoint-delivery-counts";
import { eventTypeSource, type EventTypeSource } from "./event-type";
import { effectiveRetention, readRetentionPolicy, retentionColumn } from "./retention";
import { secretHint } from "./secret-hint";
import { secretProblem, type SignatureScheme } from "./signatures";

export type WebhookEndpointResource = z.infer<typeof webhookEndpointSchema>;

export interface SigningInput {
  scheme: SignatureScheme;
  secret: string;
  rejectInvalid: boolean;
}

export function toSignatureSchemeName(stored: StoredScheme): SignatureScheme {
  return stored === "standard_webhooks" ? "standard-webhooks" : stored;
}

function toStoredScheme(name: SignatureScheme): StoredScheme {
  return name === "standard-webhooks" ? "standard_webhooks" : name;
}

const endpointColumns = {
  id: true,
  workspaceId: true,
  name: true,
  description: true,
  enabled: true,
  signingScheme: true,
  signingSecret: true,
  rejectInvalidSignatures: true,
  eventTypeHeader: true,
  eventTypePath: true,
  retention: true,
  // The default its own `retention` falls back to, for `effectiveRetention`.
  workspace: { select: { deliveryRetention: true } },
  createdAt: true,
  updatedAt: true,
} as const;

type EndpointRow = {
  id: string;
  workspaceId: string;
  name: string;
  description: string | null;
  enabled: boolean;
  signingScheme: StoredScheme | null;
  signingSecret: string | null;
  rejectInvalidSignatures: boolean;
  eventTypeHeader: string | null;
  eventTypePath: string | null;
  retention: Prisma.JsonValue | null;
  workspace: { deliveryRetention: Prisma.JsonValue | null };
  createdAt: Date;
  updatedAt: Date;
};

function toResource(
  row: EndpointRow,
  counts: { pending: number; total: number } | undefined,
  baseUrl: string,
): WebhookEndpointResource {
  const retention = readRetentionPolicy(row.retention);
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    description: row.description,
    ingestUrl: `${baseUrl.replace(/\/+$/, "")}/webhooks/ingest/${row.id}`,
    enabled: row.enabled,
    signing:
      row.signingScheme && row.signingSecret
        ? {
            scheme: toSignatureSchemeName(row.signingScheme),
            rejectInvalid: row.rejectInvalidSignatures,
            secretHint: secretHint(row.signingSecret),
          }
        : null,
    eventTypeSource: eventTypeSource(row.eventTypeHeader, row.eventTypePath),
    retention,
    effectiveRetention: effectiveRetention(retention, readRetentionPolicy(row.workspace.deliveryRetention)),
    pendingCount: counts?.pending ?? 0,
    totalCount: counts?.total ?? 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** `rows` are endpoints of `workspaceId`. */
async function withCounts(
  workspaceId: string,
  rows: EndpointRow[],
  baseUrl: string,
): Promise<WebhookEndpointResource[]> {
  const counts = await countEndpointDeliveries(
    workspaceId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toResource(row, counts.get(row.id), baseUrl));
}

function signingColumns(signing: SigningInput | null) {
  if (!signing) return { signingScheme: null, signingSecret: null, rejectInvalidSignatures: false };
  const problem = secretProblem(signing.scheme, signing.secret);
  if (problem)
    throw new ApiError("validation_error", `Invalid signing secret: ${problem}`, {
      details: [{ path: "signing.secret", message: problem }],
    });
  return {
    signingScheme: toStoredScheme(signing.scheme),
    signingSecret: signing.secret,
    rejectInvalidSignatures: signing.rejectInvalid,
  };
}

/** The two columns of an event type source (the contract has checked it). */
function eventTypeSourceColumns(source: EventTypeSource | null) {
  return {
    eventTypeHeader: source && "header" in source ? source.header : null,
    eventTypePath: source && "jsonPath" in source ? source.jsonPath : null,
  };
}

const notFound = () => new ApiError("not_found", "No such webhook endpoint.");

export async function createWebhookEndpoint(options: {
  workspaceId: string;
  name: string;
  description?: string;
  signing?: SigningInput;
  eventTypeSource?: EventTypeSource | null;
  retention?: RetentionPolicy | null;
  baseUrl: string;
}): Promise<WebhookEndpointResource> {
  // A cap per workspace (each endpoint has its own ingest rate limit); the workspace row lock makes it exact.
  const row = await db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT id FROM workspaces WHERE id = ${options.workspaceId} FOR UPDATE`;
    const limit = env().MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE;
    const count = await tx.webhookEndpoint.count({ where: { workspaceId: options.workspaceId } });
    if (count >= limit)
      throw new ApiError(
        "validation_error",
        `This workspace has ${count} webhook endpoints, the most it may have (MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE=${limit}). Delete one first.`,
      );
    return tx.webhookEndpoint.create({
      data: {
        // 128 random bits after the time prefix: the ingest URL is the only secret a sender has.
        id: createId("we"),
        workspaceId: options.workspaceId,
        name: options.name,
        description: options.description ?? null,
        ...signingColumns(options.signing ?? null),
        ...eventTypeSourceColumns(options.eventTypeSource ?? null),
        retention: retentionColumn(options.retention ?? null),
      },
      select: endpointColumns,
    });
  });
  return toResource(row, undefined, options.baseUrl);
}

export async function getWebhookEndpoint(options: {
  workspaceId: string;
  endpointId: string;
  baseUrl: string;
}): Promise<WebhookEndpointResource> {
  const row = await db().webhookEndpoint.findFirst({
    where: { id: options.endpointId, workspaceId: options.workspaceId },
    select: endpointColumns,
  });
  if (!row) throw notFound();
  const [resource] = await withCounts(options.workspaceId, [row], options.baseUrl);
  return resource!;
}

export async function listWebhookEndpoints(options: {
  workspaceId: string;
  limit: number;
  cursor?: string;
  baseUrl: string;
}) {
  const scope = { workspaceId: options.workspaceId, list: "webhook-endpoints" };
  const after = options.cursor ? decodeCursor(options.cursor, scope) : null;
  const rows = await db().webhookEndpoint.findMany({
    where: {
      workspaceId: options.workspaceId,
      ...(after && {
        createdAt: { lte: after.createdAt },
        OR: [{ createdAt: { lt: after.createdAt } }, { id: { lt: after.id } }],
      }),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.limit + 1,
    select: endpointColumns,
  });
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    endpoints: await withCounts(options.workspaceId, page, options.baseUrl),
    nextCursor: rows.length > options.limit && last ? encodeCursor(last, scope) : null,
  };
}

export async function updateWebhookEndpoint(options: {
  workspaceId: string;
  endpointId: string;
  changes: {
    name?: string;
    description?: string | null;
    enabled?: boolean;
    signing?: SigningInput | null;
    eventTypeSource?: EventTypeSource | null;
    retention?: RetentionPolicy | null;
  };
  baseUrl: string;
}): Promise<WebhookEndpointResource> {
  const { name, description, enabled, signing, eventTypeSource: source, retention } = options.changes;
  const { count } = await db().webhookEndpoint.updateMany({
    where: { id: options.endpointId, workspaceId: options.workspaceId },
    data: {
      name,
      description,
      enabled,
      ...(signing !== undefined && signingColumns(signing)),
      ...(source !== undefined && eventTypeSourceColumns(source)),
      ...(retention !== undefined && { retention: retentionColumn(retention) }),
    },
  });
  if (count === 0) throw notFound();
  return getWebhookEndpoint(options);
}

/** Deletes the endpoint and, in the same statement (ON DELETE CASCADE), every delivery it received. */
export async function deleteWebhookEndpoint(options: { workspaceId: string; endpointId: string }) {
  return db().$transaction(async (tx) => {
    const deliveries = await tx.webhookDelivery.count({
      where: { webhookEndpointId: options.endpointId, workspaceId: options.workspaceId },
    });
    const { count } = await tx.webhookEndpoint.deleteMany({
      where: { id: options.endpointId, workspaceId: options.workspaceId },
    });
    if (count === 0) throw notFound();
    return { id: options.endpointId, deleted: true as const, deletedDeliveries: deliveries };
  });
}
