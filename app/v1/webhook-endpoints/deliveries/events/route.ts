import { isPrincipalActive } from "@/lib/api/authenticate";
import { route } from "@/lib/api/route";
import { streamDeliveryEventsContract } from "@/lib/contracts/webhooks";
import { createDeliveryEventStream } from "@/lib/inbox/delivery-event-stream";
import { claimEventStreamSlot } from "@/lib/inbox/event-stream-slots";

export const dynamic = "force-dynamic";

// GET /v1/webhook-endpoints/deliveries/events — server-sent events for new and acknowledged deliveries.
export const GET = route(streamDeliveryEventsContract, async ({ auth, request }) => {
  const release = claimEventStreamSlot({
    workspaceId: auth.workspace.id,
    holder: auth.apiKeyId ? `key:${auth.apiKeyId}` : `user:${auth.userId}`,
  });
  const stream = createDeliveryEventStream({
    workspaceId: auth.workspace.id,
    signal: request.signal,
    isStillAllowed: () => isPrincipalActive(auth),
    onClose: release,
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
});
