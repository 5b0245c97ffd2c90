import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./e2e/chromium";

// End-to-end tests drive the real app, started the way a user starts it (`npm start` on the embedded PostgreSQL),
// in the Chromium e2e/chromium.ts finds (CHROMIUM_PATH, a system Chromium, or the one npm brings). Nothing here
// downloads a browser.

const port = Number(process.env.E2E_PORT ?? 3197);
const baseURL = `http://127.0.0.1:${port}`;

/**
 * A fresh data folder per run, so the app starts from nothing and prints a first-run live key. This file is loaded
 * by the runner and again by every worker: the runner creates the folder and passes it down in the environment.
 * It is removed when the runner exits, which is after the web server (and with it PostgreSQL) has been stopped;
 * a global teardown would run too early, while the server still uses the folder.
 */
function runDataDir(): string {
  const existing = process.env.SIGNALBOX_E2E_DATA_DIR;
  if (existing) return existing;
  const dir = mkdtempSync(path.join(tmpdir(), "signalbox-e2e-"));
  process.env.SIGNALBOX_E2E_DATA_DIR = dir;
  process.once("exit", () => {
    stopLeftoverPostmaster(path.join(dir, "postgres", "postmaster.pid"));
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Safety net: if the server had to be killed before it could stop PostgreSQL, do not leave PostgreSQL running. */
function stopLeftoverPostmaster(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, "SIGQUIT"); // immediate shutdown; the postmaster takes its backends with it
  } catch {
    // Already gone.
  }
}

const dataDir = runDataDir();
const browser = await findChromium();

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 1,
  reporter: "list",
  globalSetup: "./e2e/global-setup.ts",
  timeout: 30_000,
  use: {
    baseURL,
    browserName: "chromium",
    trace: "off",
    launchOptions: {
      executablePath: browser.executablePath,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    command: "npm start",
    url: `${baseURL}/healthz`,
    // The first run prints the demo workspace's live key and sign-in; Playwright stores the named groups in process.env.
    wait: {
      stdout:
        /Live key\s+(?<signalbox_e2e_live_key>sbx_live_[0-9A-Za-z]+)[\s\S]*?Sign-in\s+(?<signalbox_e2e_demo_email>\S+) \/ (?<signalbox_e2e_demo_password>[0-9A-Za-z]+)/,
    },
    reuseExistingServer: false,
    // The first start may run `next build`.
    timeout: 180_000,
    // SIGTERM lets the launcher close the server and stop PostgreSQL (it gives itself 15 s) before anything is killed.
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      // Empty means unset (lib/env.ts): the app must use its embedded PostgreSQL even if the caller has a database.
      DATABASE_URL: "",
      PUBLIC_BASE_URL: "",
      // The specs sign up through the sign-up page, which only SIGNUP=open shows (invitations work in every mode).
      SIGNUP: "open",
      // e2e/forwarding.spec.ts forwards to a receiver it starts on 127.0.0.1, which the SSRF guard refuses otherwise.
      FORWARD_ALLOW_PRIVATE: "true",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
