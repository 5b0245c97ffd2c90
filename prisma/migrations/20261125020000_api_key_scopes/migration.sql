-- API key scopes (lib/auth/scopes.ts). Keys made before scopes keep what they could do, except that a test key never
-- manages keys: live keys get every scope, test keys every scope but keys:admin. (A Prisma scalar list is a nullable
-- array column; every key is created with its scopes.)

ALTER TABLE "api_keys" ADD COLUMN "scopes" TEXT[];

UPDATE "api_keys" SET "scopes" = CASE
  WHEN "mode" = 'live' THEN ARRAY['inbox:read', 'inbox:ack', 'endpoints:admin', 'enrichment', 'keys:admin']
  ELSE ARRAY['inbox:read', 'inbox:ack', 'endpoints:admin', 'enrichment']
END;
