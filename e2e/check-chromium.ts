import process from "node:process";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./chromium";

/*
 * The first step of `npm test`: a browser for the end-to-end tests is found and starts, or the run stops here, in its
 * first seconds, with one sentence saying how to get one (rather than at the e2e stage, after the build and every
 * other suite).
 */

try {
  const found = await findChromium();
  const browser = await chromium.launch({ executablePath: found.executablePath, args: CHROMIUM_ARGS });
  const version = browser.version();
  await browser.close();
  console.info(`e2e browser: Chromium ${version} (${found.source}, ${found.executablePath})`);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
