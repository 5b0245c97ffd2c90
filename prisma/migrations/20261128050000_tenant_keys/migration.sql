-- Keys of the tables a sharded PostgreSQL (Citus) would distribute by workspace_id include workspace_id, as it requires
-- of every primary key and unique constraint there (README "Scaling out"). No index is added: each key replaces one.
--
-- Endpoints and destinations already had a unique index on (workspace_id, id), which the foreign keys of deliveries,
-- destinations and forwards use: it becomes the primary key in place (no rebuild, the foreign keys keep their index),
-- and the primary key on id alone goes.
ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "webhook_endpoints_pkey",
    ADD CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY USING INDEX "webhook_endpoints_workspace_id_id_key";

ALTER TABLE "webhook_destinations" DROP CONSTRAINT "webhook_destinations_pkey",
    ADD CONSTRAINT "webhook_destinations_pkey" PRIMARY KEY USING INDEX "webhook_destinations_workspace_id_id_key";

-- Attempts and ledger rows are only ever read within their workspace; their ids are random, so (workspace_id, id)
-- is as unique as id was.
ALTER TABLE "delivery_attempts" DROP CONSTRAINT "delivery_attempts_pkey",
    ADD CONSTRAINT "delivery_attempts_pkey" PRIMARY KEY ("workspace_id", "id");

ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_pkey",
    ADD CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("workspace_id", "id");

ALTER TABLE "ledger_holds" DROP CONSTRAINT "ledger_holds_pkey",
    ADD CONSTRAINT "ledger_holds_pkey" PRIMARY KEY ("workspace_id", "id");
