import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDatabase } from "@/lib/db/database";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "@/lib/db/embedded-postgres";
import { startApp, type RunningApp } from "@/test/app-server";
import { dashboardHeaders, signIn } from "./sessions";

/*
 * Every session check asks the database whether the session was signed out. While the database is away that question
 * has no answer: the session is refused (fail closed) with 503, not 401 (the dashboard would send its user to the
 * sign-in page), and it works again, cookie unchanged, once the database is back.
 */

let dataDir: string;
let postgres: EmbeddedDatabase;
let app: RunningApp;
let cookies: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "signalbox-session-outage-"));
  postgres = await startEmbeddedPostgres({ dataDir });
  app = await startApp({ DATABASE_URL: await ensureDatabase(postgres.url, "signalbox"), PUBLIC_BASE_URL: "" });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await postgres?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const workspace = () =>
  fetch(`${app.baseUrl}/v1/workspace`, { headers: dashboardHeaders(cookies), signal: AbortSignal.timeout(15_000) });

describe("a dashboard session while the database is away", () => {
  it("works before", async () => {
    const output = app.output();
    const email = /Sign-in\s+(\S+) \/ /.exec(output)?.[1];
    const password = /Sign-in\s+\S+ \/ (\S+)/.exec(output)?.[1];
    expect(email).toBeDefined();
    cookies = (await signIn(app.baseUrl, email!, password!))!;
    expect(cookies).not.toBeNull();
    expect((await workspace()).status).toBe(200);
  });

  it("is refused with 503, not 401, and works again with the same cookie once the database is back", async () => {
    await postgres.stop();
    const during = await workspace();
    expect(during.status).toBe(503);
    expect(during.headers.get("retry-after")).toBe("1");
    expect(await during.json()).toMatchObject({ success: false, error: { code: "service_unavailable" } });

    postgres = await startEmbeddedPostgres({ dataDir, port: postgres.port });
    await expect.poll(async () => (await workspace()).status, { timeout: 20_000, interval: 250 }).toBe(200);
  });
});
