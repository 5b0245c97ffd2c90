-- Issue #19: a delivery's body is stored once. `raw_payload` (jsonb) repeated `raw_body` (the exact bytes) in another
-- form, which doubled the bytes, TOAST compression and WAL of every delivery and made ingest parse and re-serialise
-- each JSON body. The parsed view is now made from `raw_body` and `content_type` when a delivery is read, by the same
-- function that made the column (lib/inbox/payload.ts), so nothing stored is lost. Dropping a column rewrites nothing:
-- old rows keep their bytes until they are next updated or vacuumed full.
ALTER TABLE "webhook_deliveries" DROP COLUMN "raw_payload";
