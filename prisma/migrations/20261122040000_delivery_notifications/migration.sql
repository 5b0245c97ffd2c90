-- Live updates for the dashboard: every new or acknowledged delivery is announced on the channel
-- `signalbox_deliveries` (LISTEN/NOTIFY), so every app instance can tell its open dashboards.
-- The payload carries ids only; clients fetch the rows through the API as usual.

CREATE FUNCTION "signalbox_notify_delivery"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('signalbox_deliveries', json_build_object(
    'type', CASE WHEN TG_OP = 'INSERT' THEN 'delivery.created' ELSE 'delivery.acknowledged' END,
    'workspaceId', NEW.workspace_id,
    'endpointId', NEW.webhook_endpoint_id,
    'deliveryId', NEW.id
  )::text);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "webhook_deliveries_notify_insert"
  AFTER INSERT ON "webhook_deliveries"
  FOR EACH ROW EXECUTE FUNCTION "signalbox_notify_delivery"();

CREATE TRIGGER "webhook_deliveries_notify_ack"
  AFTER UPDATE OF "acknowledged_at" ON "webhook_deliveries"
  FOR EACH ROW WHEN (OLD.acknowledged_at IS NULL AND NEW.acknowledged_at IS NOT NULL)
  EXECUTE FUNCTION "signalbox_notify_delivery"();
