-- Self-hosting: operators (users who run the server) and invitation links (an owner's into a workspace, or an
-- operator's sign-up invitation with no workspace). Only a SHA-256 of each link's token is stored.

ALTER TABLE "users" ADD COLUMN "is_operator" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "invitations" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT,
    "email" TEXT NOT NULL,
    "role" "WorkspaceRole" NOT NULL DEFAULT 'member',
    "token_hash" TEXT NOT NULL,
    "invited_by_user_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");
CREATE INDEX "invitations_workspace_id_created_at_idx" ON "invitations"("workspace_id", "created_at");

ALTER TABLE "invitations" ADD CONSTRAINT "invitations_workspace_id_fkey" FOREIGN KEY ("workspace_id")
    REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_user_id_fkey" FOREIGN KEY ("invited_by_user_id")
    REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The first user (created by the launcher) runs the server.
UPDATE "users" SET "is_operator" = true
WHERE "id" = (SELECT "id" FROM "users" ORDER BY "created_at", "id" LIMIT 1);
