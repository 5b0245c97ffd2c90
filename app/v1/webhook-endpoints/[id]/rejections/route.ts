import { route } from "@/lib/api/route";
import { listRejectionsContract } from "@/lib/contracts/rejections";
import { listRejections } from "@/lib/inbox/rejections";

// GET /v1/webhook-endpoints/:id/rejections — the ingest requests the endpoint refused lately, newest first.
export const GET = route(listRejectionsContract, async ({ auth, params, query }) => ({
  success: true as const,
  data: await listRejections({
    workspaceId: auth.workspace.id,
    endpointId: params.id,
    limit: query.limit,
    cursor: query.cursor,
  }),
}));
