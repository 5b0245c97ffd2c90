import { route } from "@/lib/api/route";
import { videoDetailsContract } from "@/lib/contracts/media";
import { getVideoDetails } from "@/lib/media/video-details";

// GET /v1/data/media/video/details — a YouTube video's public details, flat (no envelope); money in headers.
export const GET = route(videoDetailsContract, async ({ auth, query }) => {
  const { data, meta } = await getVideoDetails({ principal: auth, videoId: query.video_id });
  return Response.json(data, {
    headers: {
      "x-cost-cents": String(meta.costCents),
      "x-subscription-remaining-cents": String(meta.subscriptionRemainingCents),
      "x-purchased-balance-cents": String(meta.purchasedBalanceCents),
      "x-cached": String(meta.cached),
    },
  });
});
