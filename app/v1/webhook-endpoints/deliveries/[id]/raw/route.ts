import { route } from "@/lib/api/route";
import { getDeliveryRawBodyContract } from "@/lib/contracts/webhooks";
import { getDeliveryRawBody } from "@/lib/inbox/deliveries";

// GET /v1/webhook-endpoints/deliveries/:id/raw — the exact request bytes with the original Content-Type.
export const GET = route(getDeliveryRawBodyContract, async ({ auth, params }) => {
  const { body, contentType } = await getDeliveryRawBody({ workspaceId: auth.workspace.id, deliveryId: params.id });
  return new Response(new Uint8Array(body), {
    headers: {
      "content-type": contentType ?? "application/octet-stream",
      // The bytes are someone else's: never let a browser sniff or render them as a page of ours.
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "content-disposition": `attachment; filename="delivery-${params.id}.bin"`,
    },
  });
});
