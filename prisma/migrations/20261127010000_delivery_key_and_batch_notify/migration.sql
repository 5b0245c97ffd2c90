-- Issue #19: less work per stored delivery (bench/row-costs.ts measures each part per row).
--
-- 1. One foreign key instead of two. A delivery referenced its workspace and its endpoint separately: two checks per
--    row. It now references its endpoint by (workspace_id, id), one check that also guarantees the delivery's
--    workspace is its endpoint's. Deleting a workspace still deletes its deliveries, through its endpoints.
CREATE UNIQUE INDEX "webhook_endpoints_workspace_id_id_key" ON "webhook_endpoints"("workspace_id", "id");

ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_workspace_id_fkey";
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_webhook_endpoint_id_fkey";
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_workspace_id_webhook_endpoint_id_fkey"
    FOREIGN KEY ("workspace_id", "webhook_endpoint_id") REFERENCES "webhook_endpoints"("workspace_id", "id")
    ON DELETE CASCADE ON UPDATE CASCADE;

-- 2. New deliveries are announced once per statement rather than once per row: ingest writes up to 100 rows in one
--    INSERT, and a row-level trigger ran a function, built a JSON text and queued a notification for each. One
--    notification per endpoint and statement (at most 100 ids, well under NOTIFY's 8,000-byte limit) now carries
--    their ids: `{type: "delivery.created", workspaceId, endpointId, deliveryIds: [...]}`. Acknowledgements keep the
--    per-row announcement (lib/inbox/delivery-events.ts reads both).
DROP TRIGGER "webhook_deliveries_notify_insert" ON "webhook_deliveries";

CREATE FUNCTION "signalbox_notify_deliveries_created"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('signalbox_deliveries', json_build_object(
    'type', 'delivery.created',
    'workspaceId', workspace_id,
    'endpointId', webhook_endpoint_id,
    'deliveryIds', ids
  )::text)
  FROM (
    SELECT workspace_id, webhook_endpoint_id, json_agg(id) AS ids
    FROM (
      SELECT workspace_id, webhook_endpoint_id, id,
             (row_number() OVER (PARTITION BY workspace_id, webhook_endpoint_id) - 1) / 100 AS chunk
      FROM created
    ) AS numbered
    GROUP BY workspace_id, webhook_endpoint_id, chunk
  ) AS chunks;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "webhook_deliveries_notify_insert"
  AFTER INSERT ON "webhook_deliveries"
  REFERENCING NEW TABLE AS created
  FOR EACH STATEMENT EXECUTE FUNCTION "signalbox_notify_deliveries_created"();
