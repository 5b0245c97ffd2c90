import type { EffectiveRetention, RetentionPolicy } from "@/lib/contracts/retention";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";

/*
 * Retention settings (issue #22): an endpoint's own policy (`webhook_endpoints.retention`), else its workspace's
 * default (`workspaces.delivery_retention`), else keep everything. The background job that deletes expired deliveries
 * reads the same two columns with the same rule: coalesce(endpoint, workspace).
 */

/**
 * A stored policy as the API shows it. The database checks the shape (`delivery_retention_is_valid`), so this only
 * names the members.
 */
export function readRetentionPolicy(stored: Prisma.JsonValue | null): RetentionPolicy | null {
  if (stored === null || typeof stored !== "object" || Array.isArray(stored)) return null;
  return {
    acknowledgedDays: typeof stored.acknowledgedDays === "number" ? stored.acknowledgedDays : null,
    allDays: typeof stored.allDays === "number" ? stored.allDays : null,
  };
}

/** What a column is given: the policy with both members written, or SQL NULL. */
export function retentionColumn(policy: RetentionPolicy | null): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return policy === null ? Prisma.DbNull : { acknowledgedDays: policy.acknowledgedDays, allDays: policy.allDays };
}

/** The policy that applies to an endpoint's deliveries, and where it comes from. */
export function effectiveRetention(
  endpointPolicy: RetentionPolicy | null,
  workspacePolicy: RetentionPolicy | null,
): EffectiveRetention {
  if (endpointPolicy) return { ...endpointPolicy, source: "endpoint" };
  if (workspacePolicy) return { ...workspacePolicy, source: "workspace" };
  return { acknowledgedDays: null, allDays: null, source: "none" };
}

/**
 * Sets the workspace's default policy. A default that keeps both classes forever is stored as null: it is the same
 * as having none, and says so (`source: "none"` on the endpoints).
 */
export async function setWorkspaceDeliveryRetention(options: {
  workspaceId: string;
  policy: RetentionPolicy | null;
}): Promise<void> {
  const { policy } = options;
  const keepsEverything = policy === null || (policy.acknowledgedDays === null && policy.allDays === null);
  await db().workspace.update({
    where: { id: options.workspaceId },
    data: { deliveryRetention: retentionColumn(keepsEverything ? null : policy) },
  });
}
