import { z } from "zod";
import { parseVideoId } from "@/lib/contracts/video-id";
import { defineContract } from "./contract";

export const videoDetailsSchema = z
  .object({
    video_id: z.string(),
    title: z.string(),
    author: z.string(),
    number_of_views: z.number().int(),
    video_length: z.string().meta({ description: "Length in seconds, as text." }),
    description: z.string(),
    is_live_content: z.enum(["True", "False"]),
    published_time: z.string().meta({ description: "YYYY-MM-DD" }),
    channel_id: z.string(),
    category: z.string(),
    type: z.enum(["video", "short", "live", "upcoming", "premiere"]),
    keywords: z.array(z.string()),
    thumbnails: z.array(z.object({ url: z.string(), width: z.number().int(), height: z.number().int() })),
  })
  .meta({ id: "VideoDetails" });

export const videoDetailsContract = defineContract({
  operationId: "media_video_details",
  scope: "enrichment",
  method: "GET",
  path: "/v1/data/media/video/details",
  tag: "Media",
  summary: "Public details of a YouTube video",
  description:
    "`video_id` is an 11-character id or any YouTube URL (watch, youtu.be, shorts, embed, live; m. and music. hosts). The answer is the flat object itself, no envelope; the price and balances are in the `X-Cost-Cents`, `X-Subscription-Remaining-Cents`, `X-Purchased-Balance-Cents` and `X-Cached` headers. Errors use FastAPI's `{ detail }` shape.",
  auth: "apiKey",
  errorFormat: "fastapi",
  query: z.object({
    video_id: z
      .string({ error: (issue) => (issue.input === undefined ? "Field required" : "must be text") })
      .trim()
      .max(2_000, { error: "is too long" })
      .refine((value) => parseVideoId(value) !== null, {
        error: "must be an 11-character YouTube video id or a YouTube video URL",
      })
      .transform((value) => parseVideoId(value)!)
      .meta({ description: "A video id such as `dQw4w9WgXcQ`, or a YouTube URL." }),
  }),
  response: videoDetailsSchema,
  errors: [
    "validation_error",
    "unauthorized",
    "payment_required",
    "not_found",
    "forbidden",
    "unavailable_for_legal_reasons",
    "upstream_unavailable",
  ],
});
