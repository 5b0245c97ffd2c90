import { route } from "@/lib/api/route";
import { getUnknownEndpointRequestsContract } from "@/lib/contracts/operator";
import { unknownEndpointRequests } from "@/lib/inbox/rejection-log";

// GET /v1/operator/unknown-endpoint-requests — ingest requests for unknown endpoint ids, counted by this instance.
export const GET = route(getUnknownEndpointRequestsContract, async () => {
  const { count, since } = unknownEndpointRequests();
  return { success: true as const, data: { count, since: since.toISOString() } };
});
