import { randomBytes } from "node:crypto";
import { afterAll, inject } from "vitest";
import { disconnectDb } from "@/lib/db/client";
import { cloneDatabase, dropDatabase } from "./databases";

// Runs before each integration test file: a fresh migrated database, exposed as DATABASE_URL so that `db()` and any
// app process the file starts use it. Dropped when the file ends.
const server = inject("postgresUrl");
const database = await cloneDatabase(server, inject("templateDatabase"));
process.env.DATABASE_URL = database.url;
// Signs cursors in this process; an app the file starts generates and stores its own in the file's database.
process.env.SIGNALBOX_SECRET ??= randomBytes(32).toString("base64url");

afterAll(async () => {
  await disconnectDb();
  await dropDatabase(server, database.name);
});
