import type { Page } from "@playwright/test";

/** Where every spec saves its screenshots (git-ignored). */
export const SCREENSHOTS = "e2e/screenshots";

/** Every console error and uncaught page error while the test runs; each test ends by expecting none. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}
