import { ndjsonResponse } from "@/lib/api/ndjson-response";
import { route } from "@/lib/api/route";
import { exportDeliveriesContract } from "@/lib/contracts/webhooks";
import { exportDeliveries } from "@/lib/inbox/export-deliveries";

// GET /v1/webhook-endpoints/deliveries/export — the filtered deliveries as NDJSON, oldest first, streamed in chunks.
export const GET = route(exportDeliveriesContract, async ({ auth, query }) => {
  const { body, ...filter } = query;
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  return ndjsonResponse(
    exportDeliveries({ workspaceId: auth.workspace.id, filter, body }),
    (count) => ({ type: "end", count }),
    {
      "content-disposition": `attachment; filename="deliveries-${stamp}.ndjson"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  );
});
