import { db, type DbClient } from "@/lib/db/client";
import { createId } from "@/lib/ids";

export async function createWorkspace(options: { name: string; ownerUserId?: string; client?: DbClient }) {
  const client = options.client ?? db();
  return client.workspace.create({
    data: {
      id: createId("ws"),
      name: options.name,
      members: options.ownerUserId ? { create: { userId: options.ownerUserId, role: "owner" } } : undefined,
    },
  });
}

export async function getWorkspace(options: { workspaceId: string }) {
  return db().workspace.findUnique({
    where: { id: options.workspaceId },
    select: {
      id: true,
      name: true,
      createdAt: true,
      deliveryRetention: true,
      subscriptionAllowanceCents: true,
      periodStartedAt: true,
    },
  });
}
