import type { z } from "zod";
import {
  MAX_DESTINATIONS_PER_ENDPOINT,
  type createDestinationContract,
  type createdDestinationSchema,
  type destinationSchema,
  type updateDestinationContract,
} from "@/lib/contracts/forwarding";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { ApiError } from "@/lib/errors";
import { createId } from "@/lib/ids";
import { newDestinationSecret } from "./outgoing-request";
import { changeEndpointDestinations } from "./endpoint-forwarding";

export type DestinationResource = z.infer<typeof destinationSchema>;
export type CreatedDestinationResource = z.infer<typeof createdDestinationSchema>;
export type DestinationInput = z.output<NonNullable<(typeof createDestinationContract)["body"]>>;
export type DestinationChanges = z.output<NonNullable<(typeof updateDestinationContract)["body"]>>;

/** Every column but the signing secret, which is shown once, at creation. */
const DESTINATION_COLUMNS = {
  id: true,
  webhookEndpointId: true,
  url: true,
  headers: true,
  timeoutMs: true,
  maxAttempts: true,
  maxAgeSeconds: true,
  rateLimitPerSecond: true,
  autoAcknowledge: true,
  ordered: true,
  enabled: true,
  disabledReason: true,
  lastAttemptAt: true,
  lastSuccessAt: true,
  lastFailureAt: true,
  lastError: true,
  consecutiveFailures: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.WebhookDestinationSelect;

type DestinationRow = Prisma.WebhookDestinationGetPayload<{ select: typeof DESTINATION_COLUMNS }>;

export const destinationNotFound = () => new ApiError("not_found", "No such destination.");

export function toDestinationResource(row: DestinationRow): DestinationResource {
  return {
    id: row.id,
    endpointId: row.webhookEndpointId,
    url: row.url,
    headers: row.headers as Record<string, string>,
    timeoutMs: row.timeoutMs,
    retry: { maxAttempts: row.maxAttempts, maxAgeSeconds: row.maxAgeSeconds },
    rateLimitPerSecond: row.rateLimitPerSecond,
    autoAcknowledge: row.autoAcknowledge,
    ordered: row.ordered,
    enabled: row.enabled,
    disabledReason: row.disabledReason === "gone" ? "gone" : null,
    health: {
      failing: row.consecutiveFailures > 0,
      consecutiveFailures: row.consecutiveFailures,
      lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
      lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
      lastFailureAt: row.lastFailureAt?.toISOString() ?? null,
      lastError: row.lastError,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Header names are stored lower-cased (the contract refused names that differ only in case). */
function storedHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

/** The columns a create or change sets; fields not given are left out (defaults, or the stored values). */
function settingColumns(input: DestinationChanges) {
  return {
    ...(input.url !== undefined && { url: input.url }),
    ...(input.headers !== undefined && { headers: storedHeaders(input.headers) }),
    ...(input.timeoutMs !== undefined && { timeoutMs: input.timeoutMs }),
    ...(input.retry?.maxAttempts !== undefined && { maxAttempts: input.retry.maxAttempts }),
    ...(input.retry?.maxAgeSeconds !== undefined && { maxAgeSeconds: input.retry.maxAgeSeconds }),
    ...(input.rateLimitPerSecond !== undefined && { rateLimitPerSecond: input.rateLimitPerSecond }),
    ...(input.autoAcknowledge !== undefined && { autoAcknowledge: input.autoAcknowledge }),
    ...(input.ordered !== undefined && { ordered: input.ordered }),
    ...(input.enabled !== undefined && { enabled: input.enabled }),
  };
}

/**
 * Adds a destination to an endpoint, with a new signing secret returned this once. At most
 * MAX_DESTINATIONS_PER_ENDPOINT per endpoint: the endpoint's row lock (changeEndpointDestinations) makes the count exact.
 */
export async function createDestination(options: {
  workspaceId: string;
  endpointId: string;
  input: DestinationInput;
}): Promise<CreatedDestinationResource> {
  const signingSecret = newDestinationSecret();
  const row = await changeEndpointDestinations(options.workspaceId, options.endpointId, async (tx) => {
    const count = await tx.webhookDestination.count({
      where: { workspaceId: options.workspaceId, webhookEndpointId: options.endpointId },
    });
    if (count >= MAX_DESTINATIONS_PER_ENDPOINT)
      throw new ApiError(
        "validation_error",
        `This endpoint has ${count} destinations, the most it may have (${MAX_DESTINATIONS_PER_ENDPOINT}). Delete one first.`,
      );
    return tx.webhookDestination.create({
      data: {
        id: createId("dst"),
        workspaceId: options.workspaceId,
        webhookEndpointId: options.endpointId,
        signingSecret,
        url: options.input.url,
        ...settingColumns(options.input),
      },
      select: DESTINATION_COLUMNS,
    });
  });
  return { ...toDestinationResource(row), signingSecret };
}

/** An endpoint's destinations, oldest first (at most MAX_DESTINATIONS_PER_ENDPOINT); 404 for an unknown endpoint. */
export async function listDestinations(options: {
  workspaceId: string;
  endpointId: string;
}): Promise<DestinationResource[]> {
  const endpoint = await db().webhookEndpoint.findFirst({
    where: { workspaceId: options.workspaceId, id: options.endpointId },
    select: {
      destinations: {
        where: { workspaceId: options.workspaceId },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: DESTINATION_COLUMNS,
      },
    },
  });
  if (!endpoint) throw new ApiError("not_found", "No such webhook endpoint.");
  return endpoint.destinations.map(toDestinationResource);
}

/**
 * Changes a destination. Forwards already queued read the destination when they are attempted, so a new URL, headers
 * or retry policy apply from their next attempt. Enabling a disabled destination clears why the service disabled it
 * and its failure streak.
 */
export async function updateDestination(options: {
  workspaceId: string;
  endpointId: string;
  destinationId: string;
  changes: DestinationChanges;
}): Promise<DestinationResource> {
  return changeEndpointDestinations(options.workspaceId, options.endpointId, async (tx) => {
    const where = {
      workspaceId: options.workspaceId,
      webhookEndpointId: options.endpointId,
      id: options.destinationId,
    };
    const current = await tx.webhookDestination.findFirst({ where, select: { enabled: true } });
    if (!current) throw destinationNotFound();
    const enabling = options.changes.enabled === true && !current.enabled;
    const [row] = await tx.webhookDestination.updateManyAndReturn({
      where,
      data: {
        ...settingColumns(options.changes),
        ...(enabling && { disabledReason: null, consecutiveFailures: 0 }),
      },
      select: DESTINATION_COLUMNS,
    });
    return toDestinationResource(row!);
  });
}

/** Removes a destination; its forwards and their attempts go with it (their queued jobs then find nothing and end). */
export async function deleteDestination(options: {
  workspaceId: string;
  endpointId: string;
  destinationId: string;
}): Promise<{ id: string; deleted: true }> {
  return changeEndpointDestinations(options.workspaceId, options.endpointId, async (tx) => {
    const { count } = await tx.webhookDestination.deleteMany({
      where: { workspaceId: options.workspaceId, webhookEndpointId: options.endpointId, id: options.destinationId },
    });
    if (count === 0) throw destinationNotFound();
    return { id: options.destinationId, deleted: true as const };
  });
}
