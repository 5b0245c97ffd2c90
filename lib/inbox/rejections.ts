import type { z } from "zod";
import type { rejectionSchema } from "@/lib/contracts/rejections";
import { decodeOffsetCursor, encodeOffsetCursor } from "@/lib/cursor";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors";

export type RejectionResource = z.infer<typeof rejectionSchema>;

/**
 * An endpoint's refused ingest requests (./rejection-log.ts), newest first (by the number each took when recorded),
 * with how many were recorded and how many only counted; 404 for an endpoint that is not the workspace's. The cursor
 * is the number of the page's last row, signed for this endpoint: rows written over meanwhile are simply gone.
 */
export async function listRejections(options: {
  workspaceId: string;
  endpointId: string;
  limit: number;
  cursor?: string;
}) {
  const scope = { workspaceId: options.workspaceId, endpointId: options.endpointId, list: "rejections" };
  const before = options.cursor === undefined ? null : decodeOffsetCursor(options.cursor, scope);
  const endpoint = await db().webhookEndpoint.findFirst({
    where: { workspaceId: options.workspaceId, id: options.endpointId },
    select: {
      rejectionCount: { select: { recorded: true, notRecorded: true } },
      rejections: {
        where: { workspaceId: options.workspaceId, ...(before !== null && { sequence: { lt: BigInt(before) } }) },
        orderBy: { sequence: "desc" },
        take: options.limit + 1,
      },
    },
  });
  if (!endpoint) throw new ApiError("not_found", "No such webhook endpoint.");
  const page = endpoint.rejections.slice(0, options.limit);
  const last = page.at(-1);
  return {
    rejections: page.map((row): RejectionResource => ({
      id: row.id,
      endpointId: row.webhookEndpointId,
      createdAt: row.createdAt.toISOString(),
      status: row.status,
      reason: row.reason as RejectionResource["reason"],
      message: row.message,
      method: row.method,
      query: row.query,
      headers: row.headers as Record<string, string>,
      sourceIp: row.sourceIp,
      bodyPreview: row.bodyPreview ? Buffer.from(row.bodyPreview).toString("base64") : null,
      bodyBytesRead: row.bodyBytesRead,
    })),
    nextCursor:
      endpoint.rejections.length > options.limit && last ? encodeOffsetCursor(Number(last.sequence), scope) : null,
    recordedCount: Number(endpoint.rejectionCount?.recorded ?? 0),
    notRecordedCount: Number(endpoint.rejectionCount?.notRecorded ?? 0),
  };
}
