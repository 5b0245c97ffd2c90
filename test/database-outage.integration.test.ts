import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDatabase } from "@/lib/db/database";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "@/lib/db/embedded-postgres";
import { startApp, type RunningApp } from "./app-server";
import { INGEST_PATHS } from "./ingest-paths";

// The app runs on a PostgreSQL server of this file's own, so the test can stop it and start it again.
let dataDir: string;
let postgres: EmbeddedDatabase;
let app: RunningApp;
let liveKey: string;
let ingestUrl: string;

const workspace = () =>
  fetch(`${app.baseUrl}/v1/workspace`, {
    headers: { authorization: `Bearer ${liveKey}` },
    signal: AbortSignal.timeout(10_000),
  });
const health = () => fetch(`${app.baseUrl}/healthz`, { signal: AbortSignal.timeout(10_000) });
const ingest = () =>
  fetch(ingestUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"n":1}',
    signal: AbortSignal.timeout(10_000),
  });

// On both servers of ingest (test/ingest-paths.ts), each with a PostgreSQL of its own.
describe.each(INGEST_PATHS)("on the $name", (ingestPath) => {
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "signalbox-outage-"));
    postgres = await startEmbeddedPostgres({ dataDir });
    const url = await ensureDatabase(postgres.url, "signalbox");
    app = await startApp({ ...ingestPath.env, DATABASE_URL: url });
    liveKey = /Live key\s+(sbx_live_\w+)/.exec(app.output())?.[1] ?? "";
  });

  afterAll(async () => {
    await app?.stop();
    await postgres?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  describe("when the database goes away", () => {
    it("serves normally first", async () => {
      expect(liveKey).not.toBe("");
      expect((await workspace()).status).toBe(200);
      expect((await health()).status).toBe(200);
      const created = await fetch(`${app.baseUrl}/v1/webhook-endpoints`, {
        method: "POST",
        headers: { authorization: `Bearer ${liveKey}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "outage" }),
      });
      ingestUrl = ((await created.json()) as { data: { ingestUrl: string } }).data.ingestUrl;
      expect((await ingest()).status).toBe(200);
    });

    it("answers 503 with the error body, never 200 or 500, and stays up", async () => {
      await postgres.stop();

      const healthResponse = await health();
      expect(healthResponse.status).toBe(503);
      expect(await healthResponse.json()).toMatchObject({ success: false, error: { code: "service_unavailable" } });

      const apiResponse = await workspace();
      expect(apiResponse.status).toBe(503);
      expect(apiResponse.headers.get("retry-after")).toBe("1");
      const body = await apiResponse.text();
      expect(JSON.parse(body)).toMatchObject({ success: false, error: { code: "service_unavailable" } });
      expect(body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|prisma/i);

      // A sender must never get 200 for a delivery that was not stored.
      const ingestResponse = await ingest();
      expect(ingestResponse.status).toBe(503);
      expect(await ingestResponse.json()).toMatchObject({ success: false, error: { code: "service_unavailable" } });
      expect(app.process.exitCode).toBeNull();
    });

    it("recovers without a restart once the database is back", async () => {
      postgres = await startEmbeddedPostgres({ dataDir, port: postgres.port });
      await expect.poll(async () => (await health()).status, { timeout: 15_000, interval: 250 }).toBe(200);
      expect((await workspace()).status).toBe(200);
      expect((await ingest()).status).toBe(200);
    });
  });
});
