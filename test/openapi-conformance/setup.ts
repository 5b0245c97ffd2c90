import { afterAll } from "vitest";
import { conformanceViolations, installConformanceRecorder } from "./record";

// Integration setup file: every answer this file's tests receive from the app must be one its OpenAPI document
// declares (test/openapi-conformance/record.ts). Registered first, so it runs after the file's own afterAll hooks.
installConformanceRecorder();

afterAll(async () => {
  const violations = await conformanceViolations();
  if (violations.length > 0) {
    const shown = violations.slice(0, 40).join("\n  ");
    const more = violations.length > 40 ? `\n  … and ${violations.length - 40} more` : "";
    throw new Error(`${violations.length} answer(s) differ from /v1/openapi.json:\n  ${shown}${more}`);
  }
});
