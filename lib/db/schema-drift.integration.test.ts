import { readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { cloneDatabase, createEmptyDatabase, dropDatabase } from "@/test/databases";
import { compareSchemaWithDatabase } from "@/test/schema-drift";

const SCHEMA_PATH = path.join(process.cwd(), "prisma", "schema.prisma");

async function execute(url: string, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // One statement at a time: ALTER TYPE … ADD VALUE may not share a transaction with the rest.
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

describe("schema.prisma and prisma/migrations", () => {
  it("a freshly migrated database matches schema.prisma exactly", async () => {
    const schema = await readFile(SCHEMA_PATH, "utf8");
    const differences = await compareSchemaWithDatabase({ schema, connectionString: process.env.DATABASE_URL ?? "" });
    expect(differences).toEqual([]);
  });

  it("reports every kind of drift it is meant to catch", async () => {
    const server = inject("postgresUrl");
    const database = await cloneDatabase(server, inject("templateDatabase"), "drift");
    try {
      await execute(database.url, [
        `ALTER TABLE "users" ALTER COLUMN "email" DROP NOT NULL`,
        `ALTER TABLE "api_keys" ADD COLUMN "stray" TEXT`,
        `DROP INDEX "workspace_members_user_id_idx"`,
        `ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_workspace_id_fkey"`,
        `ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE RESTRICT ON UPDATE CASCADE`,
        `ALTER TYPE "WorkspaceRole" ADD VALUE 'admin'`,
        `ALTER TABLE "workspace_members" ALTER COLUMN "role" SET DEFAULT 'owner'`,
        `ALTER TABLE "api_keys" ALTER COLUMN "created_at" DROP DEFAULT`,
        `ALTER TABLE "workspaces" ALTER COLUMN "name" TYPE VARCHAR(100)`,
        `ALTER INDEX "users_email_key" RENAME TO "users_email_unique"`,
        `CREATE TABLE "stray" ("id" INTEGER)`,
        `DROP INDEX "webhook_deliveries_endpoint_pending_idx"`,
        `CREATE INDEX "webhook_deliveries_endpoint_pending_idx" ON "webhook_deliveries"("webhook_endpoint_id", "created_at", "id") WHERE acknowledged_at IS NOT NULL`,
      ]);
      const schema = await readFile(SCHEMA_PATH, "utf8");
      const differences = await compareSchemaWithDatabase({ schema, connectionString: database.url });

      // Exactly these, and nothing else: each drift is reported once, with what the schema expected.
      expect([...differences].sort()).toEqual(
        [
          `column users.email: is nullable, schema says NOT NULL`,
          `column api_keys.stray: in the database but not in the schema`,
          `table workspace_members: index workspace_members_user_id_idx (user_id) is missing in the database`,
          `table api_keys: foreign key api_keys_workspace_id_fkey (workspace_id) → workspaces(id) ON DELETE CASCADE ON UPDATE CASCADE is ON DELETE RESTRICT in the database`,
          `enum WorkspaceRole: values are [owner, member, admin], schema says [owner, member]`,
          `column workspace_members.role: has default 'owner'::"WorkspaceRole", schema says 'member'`,
          `column api_keys.created_at: has no default, schema says now()`,
          `column workspaces.name: type is character varying(100), schema says text`,
          `table users: unique index users_email_key (email) is named users_email_unique in the database`,
          `table stray: in the database but not in the schema`,
          `table webhook_deliveries: index webhook_deliveries_endpoint_pending_idx (webhook_endpoint_id, created_at, id) WHERE acknowledged_at is null has WHERE acknowledged_at is not null in the database`,
        ].sort(),
      );
    } finally {
      await dropDatabase(server, database.name);
    }
  });

  // The comparator must hold for models we do not have yet. PROBE_SQL is what Prisma's own schema engine
  // (`prisma migrate diff --from-empty --to-schema`, run once through @prisma/schema-engine-wasm) generates for
  // PROBE_SCHEMA, so a clean result means the comparator expects exactly what Prisma would create.
  it("agrees with Prisma's own migration for every column kind, default, index and key a schema can declare", async () => {
    const server = inject("postgresUrl");
    const database = await createEmptyDatabase(server, "probe");
    try {
      await execute(database.url, [PROBE_SQL]);
      expect(await compareSchemaWithDatabase({ schema: PROBE_SCHEMA, connectionString: database.url })).toEqual([]);

      await execute(database.url, [
        `ALTER TABLE "things" ALTER COLUMN "tags" SET NOT NULL`,
        `ALTER TABLE "things" ALTER COLUMN "payload" SET DEFAULT '{"a": [1, 2]}'`,
        `ALTER TABLE "owners" ALTER COLUMN "email" TYPE VARCHAR(255)`,
        `DROP INDEX "things_score_at_idx"`,
        `CREATE INDEX "things_score_at_idx" ON "things"("score", "at")`,
        `ALTER TABLE "TaggingNote" DROP CONSTRAINT "TaggingNote_ownerId_thingId_fkey"`,
        `DROP INDEX "_LabelToThing_B_index"`,
      ]);
      expect(
        [...(await compareSchemaWithDatabase({ schema: PROBE_SCHEMA, connectionString: database.url }))].sort(),
      ).toEqual(
        [
          `column things.tags: is NOT NULL, schema says nullable`,
          `column things.payload: has default '{"a": [1, 2]}'::jsonb, schema says {"a": [1, 2], "b": null}`,
          `column owners.email: type is character varying(255), schema says character varying(320)`,
          `table things: index things_score_at_idx (score DESC, at) is sorted (score, at) in the database`,
          `table TaggingNote: foreign key TaggingNote_ownerId_thingId_fkey (ownerId, thingId) → Tagging(owner_id, thing_id) ON DELETE SET NULL ON UPDATE CASCADE is missing in the database`,
          `table _LabelToThing: index _LabelToThing_B_index (B) is missing in the database`,
        ].sort(),
      );
    } finally {
      await dropDatabase(server, database.name);
    }
  });
});

const PROBE_SCHEMA = `datasource db {
  provider = "postgresql"
}

enum Colour {
  red
  dark_green @map("dark-green")

  @@map("colour")
}

model Owner {
  id     String  @id(map: "owner_pk") @default(uuid()) @db.Uuid
  email  String  @db.VarChar(320)
  code   String  @db.Char(3)
  things Thing[]
  // Implicit many-to-many relations: Prisma adds the join tables itself.
  friends  Owner[] @relation("friends")
  friendOf Owner[] @relation("friends")

  @@unique([code, email], map: "owner_code_email_uniq")
  @@map("owners")
}

model Thing {
  id        BigInt                   @id @default(autoincrement())
  ownerId   String                   @map("owner_id") @db.Uuid
  parentId  BigInt?                  @map("parent_id")
  tags      String[]                 @default([])
  counts    Int[]
  payload   Json                     @default("{\\"a\\": [1, 2], \\"b\\": null}")
  extra     Json?                    @db.Json
  blob      Bytes?
  price     Decimal                  @default(0.5) @db.Decimal(10, 2)
  ratio     Decimal?
  score     Float                    @default(1.5)
  small     Int                      @default(-1) @db.SmallInt
  big       BigInt                   @default(0)
  flag      Boolean                  @default(false)
  label     String                   @default("it's")
  colour    Colour                   @default(dark_green)
  colours   Colour[]
  day       DateTime?                @db.Date
  since     DateTime                 @default("2020-01-01T00:00:00Z")
  at        DateTime                 @default(now())
  atTz      DateTime                 @default(now()) @map("at_tz") @db.Timestamptz(6)
  updatedAt DateTime                 @updatedAt @map("updated_at")
  token     String                   @unique @default(dbgenerated("gen_random_uuid()::text"))
  serial    Int                      @default(autoincrement())
  search    Unsupported("tsvector")? @map("search_vector")

  owner    Owner     @relation(fields: [ownerId], references: [id], onDelete: Restrict, onUpdate: NoAction, map: "thing_owner_fk")
  parent   Thing?    @relation("tree", fields: [parentId], references: [id])
  children Thing[]   @relation("tree")
  tagging  Tagging[]
  labels   Label[]

  @@unique([ownerId, label])
  @@index([score(sort: Desc), at])
  @@index([payload], type: Gin)
  @@index([search], type: Gin)
  @@map("things")
}

model Label {
  name   String  @id @db.VarChar(40)
  things Thing[]
}

// Unmapped names, a composite key in declaration order, and a composite foreign key onto it.
model Tagging {
  thingId BigInt        @map("thing_id")
  ownerId String        @map("owner_id") @db.Uuid
  note    String?       @db.Text
  thing   Thing         @relation(fields: [thingId], references: [id], onDelete: Cascade)
  notes   TaggingNote[]

  @@id([ownerId, thingId], map: "tagging_pk")
  @@index([thingId], map: "tagging_thing")
}

model TaggingNote {
  id      Int     @id @default(autoincrement())
  ownerId String? @db.Uuid
  thingId BigInt?
  tagging Tagging? @relation(fields: [ownerId, thingId], references: [ownerId, thingId])
}
`;

const PROBE_SQL = `-- CreateEnum
CREATE TYPE "colour" AS ENUM ('red', 'dark-green');

-- CreateTable
CREATE TABLE "owners" (
    "id" UUID NOT NULL,
    "email" VARCHAR(320) NOT NULL,
    "code" CHAR(3) NOT NULL,

    CONSTRAINT "owner_pk" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "things" (
    "id" BIGSERIAL NOT NULL,
    "owner_id" UUID NOT NULL,
    "parent_id" BIGINT,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "counts" INTEGER[],
    "payload" JSONB NOT NULL DEFAULT '{"a": [1, 2], "b": null}',
    "extra" JSON,
    "blob" BYTEA,
    "price" DECIMAL(10,2) NOT NULL DEFAULT 0.5,
    "ratio" DECIMAL(65,30),
    "score" DOUBLE PRECISION NOT NULL DEFAULT 1.5,
    "small" SMALLINT NOT NULL DEFAULT -1,
    "big" BIGINT NOT NULL DEFAULT 0,
    "flag" BOOLEAN NOT NULL DEFAULT false,
    "label" TEXT NOT NULL DEFAULT 'it''s',
    "colour" "colour" NOT NULL DEFAULT 'dark-green',
    "colours" "colour"[],
    "day" DATE,
    "since" TIMESTAMP(3) NOT NULL DEFAULT '2020-01-01 00:00:00 +00:00',
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "at_tz" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "token" TEXT NOT NULL DEFAULT gen_random_uuid()::text,
    "serial" SERIAL NOT NULL,
    "search_vector" tsvector,

    CONSTRAINT "things_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Label" (
    "name" VARCHAR(40) NOT NULL,

    CONSTRAINT "Label_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "Tagging" (
    "thing_id" BIGINT NOT NULL,
    "owner_id" UUID NOT NULL,
    "note" TEXT,

    CONSTRAINT "tagging_pk" PRIMARY KEY ("owner_id","thing_id")
);

-- CreateTable
CREATE TABLE "TaggingNote" (
    "id" SERIAL NOT NULL,
    "ownerId" UUID,
    "thingId" BIGINT,

    CONSTRAINT "TaggingNote_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "_friends" (
    "A" UUID NOT NULL,
    "B" UUID NOT NULL,

    CONSTRAINT "_friends_AB_pkey" PRIMARY KEY ("A","B")
);

-- CreateTable
CREATE TABLE "_LabelToThing" (
    "A" VARCHAR(40) NOT NULL,
    "B" BIGINT NOT NULL,

    CONSTRAINT "_LabelToThing_AB_pkey" PRIMARY KEY ("A","B")
);

-- CreateIndex
CREATE UNIQUE INDEX "owner_code_email_uniq" ON "owners"("code", "email");

-- CreateIndex
CREATE UNIQUE INDEX "things_token_key" ON "things"("token");

-- CreateIndex
CREATE INDEX "things_score_at_idx" ON "things"("score" DESC, "at");

-- CreateIndex
CREATE INDEX "things_payload_idx" ON "things" USING GIN ("payload");

-- CreateIndex
CREATE INDEX "things_search_vector_idx" ON "things" USING GIN ("search_vector");

-- CreateIndex
CREATE UNIQUE INDEX "things_owner_id_label_key" ON "things"("owner_id", "label");

-- CreateIndex
CREATE INDEX "tagging_thing" ON "Tagging"("thing_id");

-- CreateIndex
CREATE INDEX "_friends_B_index" ON "_friends"("B");

-- CreateIndex
CREATE INDEX "_LabelToThing_B_index" ON "_LabelToThing"("B");

-- AddForeignKey
ALTER TABLE "things" ADD CONSTRAINT "thing_owner_fk" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE RESTRICT ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "things" ADD CONSTRAINT "things_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "things"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Tagging" ADD CONSTRAINT "Tagging_thing_id_fkey" FOREIGN KEY ("thing_id") REFERENCES "things"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaggingNote" ADD CONSTRAINT "TaggingNote_ownerId_thingId_fkey" FOREIGN KEY ("ownerId", "thingId") REFERENCES "Tagging"("owner_id", "thing_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "_friends" ADD CONSTRAINT "_friends_A_fkey" FOREIGN KEY ("A") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "_friends" ADD CONSTRAINT "_friends_B_fkey" FOREIGN KEY ("B") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "_LabelToThing" ADD CONSTRAINT "_LabelToThing_A_fkey" FOREIGN KEY ("A") REFERENCES "Label"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "_LabelToThing" ADD CONSTRAINT "_LabelToThing_B_fkey" FOREIGN KEY ("B") REFERENCES "things"("id") ON DELETE CASCADE ON UPDATE CASCADE;
`;
