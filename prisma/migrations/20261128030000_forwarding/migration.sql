-- Issue #21: deliveries forwarded to destinations, with every attempt kept. The attempts run as graphile-worker jobs
-- (its own schema `graphile_worker`, installed by lib/db/migrate.ts after these migrations).

CREATE TYPE "ForwardStatus" AS ENUM ('pending', 'succeeded', 'failed');

-- Kept true while the endpoint has an enabled destination, in the destination's own transaction. It is part of the
-- settings digest every ingested row is checked against (ENDPOINT_STATE), so a row checked before a destination was
-- added is checked again rather than stored without its forward.
ALTER TABLE "webhook_endpoints" ADD COLUMN "forwarding" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "webhook_destinations" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "webhook_endpoint_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "headers" JSONB NOT NULL DEFAULT '{}',
    "timeout_ms" INTEGER NOT NULL DEFAULT 10000,
    "max_attempts" INTEGER NOT NULL DEFAULT 8,
    "max_age_seconds" INTEGER NOT NULL DEFAULT 86400,
    "rate_limit_per_second" INTEGER,
    "auto_acknowledge" BOOLEAN NOT NULL DEFAULT false,
    "ordered" BOOLEAN NOT NULL DEFAULT false,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" TEXT,
    "signing_secret" TEXT NOT NULL,
    "last_attempt_at" TIMESTAMPTZ(3),
    "last_success_at" TIMESTAMPTZ(3),
    "last_failure_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "webhook_destinations_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "webhook_destinations_workspace_id_id_key" ON "webhook_destinations"("workspace_id", "id");
CREATE INDEX "webhook_destinations_workspace_id_webhook_endpoint_id_creat_idx" ON "webhook_destinations"("workspace_id", "webhook_endpoint_id", "created_at", "id");
CREATE INDEX "webhook_destinations_endpoint_enabled_idx" ON "webhook_destinations"("webhook_endpoint_id") WHERE enabled;
ALTER TABLE "webhook_destinations" ADD CONSTRAINT "webhook_destinations_workspace_id_webhook_endpoint_id_fkey"
    FOREIGN KEY ("workspace_id", "webhook_endpoint_id") REFERENCES "webhook_endpoints"("workspace_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "delivery_forwards" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" TEXT NOT NULL,
    "delivery_id" UUID NOT NULL,
    "destination_id" TEXT NOT NULL,
    "delivery_created_at" TIMESTAMPTZ(3) NOT NULL,
    "reason" TEXT NOT NULL DEFAULT 'ingest',
    "status" "ForwardStatus" NOT NULL DEFAULT 'pending',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    CONSTRAINT "delivery_forwards_pkey" PRIMARY KEY ("workspace_id", "id")
);
CREATE INDEX "delivery_forwards_workspace_id_delivery_id_created_at_idx" ON "delivery_forwards"("workspace_id", "delivery_id", "created_at");
CREATE INDEX "delivery_forwards_destination_pending_idx" ON "delivery_forwards"("destination_id", "delivery_created_at", "delivery_id") WHERE status = 'pending'::"ForwardStatus";
ALTER TABLE "delivery_forwards" ADD CONSTRAINT "delivery_forwards_workspace_id_destination_id_fkey"
    FOREIGN KEY ("workspace_id", "destination_id") REFERENCES "webhook_destinations"("workspace_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "delivery_attempts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspace_id" TEXT NOT NULL,
    "forward_id" UUID NOT NULL,
    "delivery_id" UUID NOT NULL,
    "destination_id" TEXT NOT NULL,
    "attempt_number" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "response_status" INTEGER,
    "response_body" BYTEA,
    "response_body_truncated" BOOLEAN NOT NULL DEFAULT false,
    "error" TEXT,
    CONSTRAINT "delivery_attempts_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "delivery_attempts_workspace_id_delivery_id_started_at_id_idx" ON "delivery_attempts"("workspace_id", "delivery_id", "started_at", "id");
CREATE INDEX "delivery_attempts_forward_id_idx" ON "delivery_attempts"("forward_id");
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_workspace_id_forward_id_fkey"
    FOREIGN KEY ("workspace_id", "forward_id") REFERENCES "delivery_forwards"("workspace_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every forward written is queued, in the transaction that wrote it (ingest's batch INSERT, a replay): one call per
-- statement, however many rows (graphile_worker.add_jobs resolves when the function runs, so its schema may be
-- installed after this). The forwards a statement wrote to one unordered destination are one `forward-batch` job: a job
-- costs a row, its index entries and a fetch and completion, which per forward halved what ingest and forwarding could
-- do. An ordered destination has one `forward-ordered` job that walks its pending forwards oldest first: keyed by the
-- destination (a second forward finds the job already queued and keeps its run_at, which may be a retry's wait) and
-- in a named queue of its own (never two walks of one destination at once).
CREATE FUNCTION "enqueue_delivery_forwards"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM graphile_worker.add_jobs(ARRAY(
    SELECT ROW('forward-batch',
               json_build_object('workspaceId', f.workspace_id,
                                 'forwardIds', json_agg(f.id ORDER BY f.delivery_created_at, f.delivery_id)),
               NULL, NULL, NULL, NULL, NULL, NULL)::graphile_worker.job_spec
    FROM new_forwards f
    JOIN webhook_destinations d ON d.workspace_id = f.workspace_id AND d.id = f.destination_id
    WHERE NOT d.ordered
    GROUP BY f.workspace_id, f.destination_id
    UNION ALL
    SELECT ROW('forward-ordered', json_build_object('destinationId', d.id, 'workspaceId', d.workspace_id),
               'ordered:' || d.id, NULL, NULL, 'ordered:' || d.id, NULL, NULL)::graphile_worker.job_spec
    FROM webhook_destinations d
    WHERE d.ordered AND (d.workspace_id, d.id) IN (SELECT workspace_id, destination_id FROM new_forwards)),
    job_key_preserve_run_at => true);
  RETURN NULL;
END $$;
CREATE TRIGGER "delivery_forwards_enqueue" AFTER INSERT ON "delivery_forwards"
    REFERENCING NEW TABLE AS new_forwards FOR EACH STATEMENT EXECUTE FUNCTION "enqueue_delivery_forwards"();
