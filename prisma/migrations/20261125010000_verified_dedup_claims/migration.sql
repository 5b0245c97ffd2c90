-- Issue #18: on an endpoint that checks signatures, only a verified delivery claims its sender message id, bound to
-- the SHA-256 of its body (lib/inbox/dedup-key.ts). Existing rows are rewritten to the same rule, so a delivery stored
-- with a failed signature stops holding a genuine sender's message id, and a genuine retry arriving after the upgrade
-- still matches the verified delivery stored before it. Rows of endpoints that check nothing keep their keys.
UPDATE "webhook_deliveries"
SET "dedup_key" = CASE
    WHEN ("signature" ->> 'valid') = 'true'
        THEN 'verified:' || "dedup_key" || ':body-sha256:' || encode(sha256("raw_body"), 'hex')
    ELSE NULL
END
WHERE "signature" IS NOT NULL AND "dedup_key" IS NOT NULL;
