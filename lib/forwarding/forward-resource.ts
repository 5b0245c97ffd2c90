import type { z } from "zod";
import type { forwardSchema } from "@/lib/contracts/forwarding";
import { Prisma } from "@/lib/db/generated/client";

export type ForwardResource = z.infer<typeof forwardSchema>;

/** A `delivery_forwards` row as FORWARD_COLUMNS reads it. */
export interface ForwardRow {
  id: string;
  destination_id: string;
  reason: string;
  status: ForwardResource["status"];
  attempt_count: number;
  next_attempt_at: Date | null;
  created_at: Date;
  completed_at: Date | null;
}

/** The columns of ForwardRow, for raw queries over `delivery_forwards` (or a CTE returning its rows). */
export const FORWARD_COLUMNS = Prisma.sql`id::text AS id, destination_id, reason, status::text AS status, attempt_count,
  next_attempt_at, created_at, completed_at`;

export function toForwardResource(row: ForwardRow): ForwardResource {
  return {
    id: row.id,
    destinationId: row.destination_id,
    reason: row.reason === "replay" ? "replay" : "ingest",
    status: row.status,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}
