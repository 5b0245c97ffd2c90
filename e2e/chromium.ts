import { accessSync, constants } from "node:fs";
import process from "node:process";

/*
 * The Chromium the end-to-end tests drive, found without downloading anything: `CHROMIUM_PATH` when set, else a
 * system Chromium (Debian's package and its usual names), else the headless Chromium that the npm package
 * `@sparticuz/chromium` ships inside itself (unpacked to the temporary folder on first use, about a second).
 */

export interface FoundChromium {
  executablePath: string;
  /** Where it came from, for the message that names it. */
  source: string;
}

const SYSTEM_CHROMIUMS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

/** How to get a browser, in one sentence, for when none is found. */
export const NO_CHROMIUM =
  "No Chromium for the end-to-end tests: run `npm install` (it brings @sparticuz/chromium, Linux x64/arm64), " +
  "install your system's chromium package, or set CHROMIUM_PATH to a Chromium or Chrome executable.";

/** Flags for a headless run in a container or CI: no sandbox (root), no GPU, nothing fetched in the background. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

export async function findChromium(): Promise<FoundChromium> {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!isExecutable(configured)) throw new Error(`CHROMIUM_PATH (${configured}) is not an executable file.`);
    return { executablePath: configured, source: "CHROMIUM_PATH" };
  }
  const system = SYSTEM_CHROMIUMS.find(isExecutable);
  if (system !== undefined) return { executablePath: system, source: "system" };
  try {
    const { default: packaged } = await import("@sparticuz/chromium");
    return { executablePath: await packaged.executablePath(), source: "@sparticuz/chromium" };
  } catch (error) {
    throw new Error(NO_CHROMIUM, { cause: error });
  }
}
