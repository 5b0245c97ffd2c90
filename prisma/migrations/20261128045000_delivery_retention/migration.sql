-- Issue #22: how long deliveries are kept. A policy is `{"acknowledgedDays": int|null, "allDays": int|null}`: a
-- delivery is expired once it was received more than `allDays` days ago, or, when acknowledged, more than
-- `acknowledgedDays` days ago (a null member keeps that class forever). An endpoint's own policy wins; null there means
-- the workspace's default; null there too keeps everything. The API validates policies (lib/contracts/retention.ts);
-- the check below holds the shape for whatever else writes, so the job that deletes expired deliveries can cast the
-- members without guarding.
CREATE FUNCTION "delivery_retention_is_valid"("policy" JSONB) RETURNS BOOLEAN
    LANGUAGE sql IMMUTABLE AS $$
    -- CASE, not AND: only an object may be taken apart (`-` fails on a scalar), and AND does not fix an order.
    SELECT CASE WHEN jsonb_typeof(policy) <> 'object' THEN false
                WHEN policy - 'acknowledgedDays' - 'allDays' <> '{}'::jsonb THEN false
                ELSE (SELECT bool_and(CASE jsonb_typeof(policy -> member)
                                        WHEN 'null' THEN true
                                        WHEN 'number' THEN (policy ->> member)::numeric BETWEEN 1 AND 3650
                                                       AND (policy ->> member)::numeric = trunc((policy ->> member)::numeric)
                                        ELSE false -- a missing member too: both are always written
                                      END)
                      FROM unnest(ARRAY['acknowledgedDays', 'allDays']) AS member)
                 AND CASE WHEN jsonb_typeof(policy -> 'acknowledgedDays') = 'number'
                           AND jsonb_typeof(policy -> 'allDays') = 'number'
                          THEN (policy ->> 'acknowledgedDays')::numeric <= (policy ->> 'allDays')::numeric
                          ELSE true
                     END
           END
$$;

ALTER TABLE "webhook_endpoints" ADD COLUMN "retention" JSONB;
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_retention_check"
    CHECK ("retention" IS NULL OR delivery_retention_is_valid("retention"));

ALTER TABLE "workspaces" ADD COLUMN "delivery_retention" JSONB;
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_delivery_retention_check"
    CHECK ("delivery_retention" IS NULL OR delivery_retention_is_valid("delivery_retention"));
