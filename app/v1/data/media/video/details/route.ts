import { route } from "@/lib/api/route";
import { videoDetailsContract } from "@/lib/contracts/media";
import { getVideoDetails } from "@/lib/media/video-details";

// GET /v1/data/media/video/details — a YouTube video's public details, flat (no envelope); money in headers.
export const GET = route(videoDetailsContract, async ({ auth, query }) => {
  const answer = await getVideoDetails({ principal: auth, videoId: query.video_id });
  return Response.json(answer.details, {
    headers: {
      "x-cost-cents": String(answer.costCents),
      "x-subscription-remaining-cents": String(answer.balances.subscriptionRemainingCents),
      "x-purchased-balance-cents": String(answer.balances.purchasedBalanceCents),
      "x-cached": String(answer.cached),
    },
  });
});
