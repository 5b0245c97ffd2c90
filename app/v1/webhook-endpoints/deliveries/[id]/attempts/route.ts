import { route } from "@/lib/api/route";
import { listAttemptsContract } from "@/lib/contracts/forwarding";
import { listDeliveryAttempts } from "@/lib/forwarding/attempts";

// GET /v1/webhook-endpoints/deliveries/:id/attempts — a delivery's forwards and every send of them.
export const GET = route(listAttemptsContract, async ({ auth, params }) => ({
  success: true as const,
  data: await listDeliveryAttempts({ workspaceId: auth.workspace.id, deliveryId: params.id }),
}));
