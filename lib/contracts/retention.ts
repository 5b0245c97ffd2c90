import { z } from "zod";

/** The longest a retention policy may keep a delivery, in days (about ten years). */
export const MAX_RETENTION_DAYS = 3650;

const DAYS_ERROR = `must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, or null to keep forever`;

const days = z
  .number({ error: DAYS_ERROR })
  .int({ error: DAYS_ERROR, abort: true })
  .min(1, { error: DAYS_ERROR })
  .max(MAX_RETENTION_DAYS, { error: DAYS_ERROR })
  .nullable();

const ACKNOWLEDGED_DAYS = `Acknowledged deliveries are deleted this many days after they were received (1–${MAX_RETENTION_DAYS}); null keeps them as long as \`allDays\` does.`;
const ALL_DAYS = `Every delivery, pending or not, is deleted this many days after it was received (1–${MAX_RETENTION_DAYS}); null keeps them forever (acknowledged ones as long as \`acknowledgedDays\` says).`;

/**
 * A policy as given: both members, a member left out meaning null. Stored with both members always written (the
 * database checks that shape, prisma/migrations/20261128045000_delivery_retention).
 */
export const retentionPolicyInput = z
  .strictObject({
    acknowledgedDays: days.default(null).meta({ description: ACKNOWLEDGED_DAYS, example: 7 }),
    allDays: days.default(null).meta({ description: ALL_DAYS, example: 30 }),
  })
  // Runs even when a member failed: it compares two numbers only, so a bad member is reported once.
  .refine(
    ({ acknowledgedDays, allDays }) =>
      typeof acknowledgedDays !== "number" || typeof allDays !== "number" || acknowledgedDays <= allDays,
    { error: "must not be more than `allDays`: every delivery is deleted after `allDays`", path: ["acknowledgedDays"] },
  )
  .meta({
    description:
      "How long deliveries are kept, counted from receipt. A member left out is null (kept forever); the object replaces the whole policy.",
  });

export const retentionPolicySchema = z
  .object({
    acknowledgedDays: z.number().int().nullable().meta({ description: ACKNOWLEDGED_DAYS }),
    allDays: z.number().int().nullable().meta({ description: ALL_DAYS }),
  })
  .meta({ id: "RetentionPolicy", description: "How long deliveries are kept, counted from their receipt." });

export type RetentionPolicy = z.output<typeof retentionPolicySchema>;

export const RETENTION_SOURCES = ["endpoint", "workspace", "none"] as const;

export const effectiveRetentionSchema = retentionPolicySchema
  .extend({
    source: z.enum(RETENTION_SOURCES).meta({
      description:
        "`endpoint`: the endpoint's own `retention`; `workspace`: the workspace's `deliveryRetention` (the endpoint has none); `none`: neither is set, everything is kept (both members null).",
    }),
  })
  .meta({
    id: "EffectiveRetention",
    description: "The policy the deletion job applies to this endpoint's deliveries, and where it comes from.",
  });

export type EffectiveRetention = z.output<typeof effectiveRetentionSchema>;
