import { handleIngestRoute } from "@/lib/api/ingest-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// POST /webhooks/ingest/:hookId — where senders deliver webhooks. The launcher answers it on its node:http fast path
// (lib/api/ingest-http.ts) unless INGEST_FAST_PATH=false; this serves it otherwise and without the launcher
// (`next start`). Every other method answers 405 with the API's error body.
export {
  handleIngestRoute as POST,
  handleIngestRoute as GET,
  handleIngestRoute as HEAD,
  handleIngestRoute as PUT,
  handleIngestRoute as PATCH,
  handleIngestRoute as DELETE,
  handleIngestRoute as OPTIONS,
};
