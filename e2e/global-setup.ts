import process from "node:process";

export const LIVE_KEY_ENV = "SIGNALBOX_E2E_LIVE_KEY";

/**
 * Runs after the web server is up. The server's first-run output carries the demo live key, which the `webServer.wait`
 * pattern in playwright.config.ts copies into the environment that the test workers inherit. Readiness is decided
 * by `/healthz`, which can win the race against that output by a moment, so wait for the key here.
 */
export default async function globalSetup(): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!process.env[LIVE_KEY_ENV]) {
    if (Date.now() > deadline) {
      throw new Error(
        `The app did not print a first-run live key; was DATA_DIR (${process.env.SIGNALBOX_E2E_DATA_DIR}) not empty?`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
