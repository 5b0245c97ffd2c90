import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

// The layer rules of eslint.config.mjs, run on probe files: an import that points up (or sideways where the table
// says no) is an error, also when written as a relative path; what the table allows passes.

const root = path.resolve(import.meta.dirname, "..");
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

async function boundaryErrors(file: string, specifier: string): Promise<string[]> {
  const code = `import * as probe from "${specifier}";\nexport const value = probe;\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages
    .filter((message) => message.ruleId === "import/no-restricted-paths")
    .map((message) => message.message);
}

// The first lint loads the whole ESLint configuration (type-aware plugins): seconds on a busy machine. A ceiling only.
describe("layer boundaries", { timeout: 60_000 }, () => {
  it.each([
    ["lib/providers/probe.ts", "@/lib/enrichment/waterfall", "providers sit below enrichment"],
    ["lib/providers/probe.ts", "../enrichment/waterfall", "a relative path is resolved like an alias"],
    ["lib/inbox/probe.ts", "@/lib/api/route", "only app/ and the launcher import the HTTP layer"],
    ["lib/billing/probe.ts", "@/lib/enrichment/waterfall", "billing sits below enrichment"],
    ["lib/media/probe.ts", "@/lib/enrichment/waterfall", "media and enrichment are siblings"],
    ["lib/cursor.ts", "@/lib/auth/api-keys", "the shared bottom imports nothing above it"],
    ["lib/contracts/probe.ts", "@/lib/billing/prices", "contracts are the shared bottom"],
    ["lib/client/probe.ts", "@/lib/db/client", "the browser client reads contracts only"],
    ["app/probe.ts", "@/lib/launcher/build", "the launcher's helpers are for server.ts"],
    ["lib/inbox/probe.ts", "@/lib/forwarding/outgoing-request", "forwarding sits above the inbox"],
    ["lib/outbound/probe.ts", "@/lib/forwarding/retry-schedule", "forwarding sits above outbound"],
    ["lib/forwarding/probe.ts", "@/lib/enrichment/waterfall", "forwarding and enrichment are siblings"],
    ["lib/relay/probe.ts", "@/lib/db/client", "the relay talks to the service over HTTP only"],
    ["lib/relay/probe.ts", "@/lib/inbox/deliveries", "the relay is no part of the server"],
    ["lib/relay/probe.ts", "@/lib/env", "the relay reads its own environment, not the server's"],
    ["app/probe.ts", "@/lib/relay/relay", "the relay is a command-line program"],
    ["lib/api/probe.ts", "@/lib/relay/relay", "the HTTP layer does not reach the relay"],
  ])("refuses %s importing %s (%s)", async (file, specifier) => {
    expect(await boundaryErrors(file, specifier)).toHaveLength(1);
  });

  it.each([
    ["lib/enrichment/probe.ts", "@/lib/providers/registry"],
    ["lib/enrichment/probe.ts", "@/lib/billing/priced-call"],
    ["lib/media/probe.ts", "@/lib/billing/priced-call"],
    ["lib/inbox/probe.ts", "@/lib/errors"],
    ["lib/api/probe.ts", "@/lib/inbox/deliveries"],
    ["app/probe.ts", "@/lib/api/route"],
    ["lib/client/probe.ts", "@/lib/contracts/webhooks"],
    ["lib/forwarding/probe.ts", "@/lib/outbound/webhook-sender"],
    ["lib/forwarding/probe.ts", "@/lib/inbox/deliveries"],
    ["lib/api/probe.ts", "@/lib/forwarding/outgoing-request"],
    ["lib/relay/probe.ts", "@/lib/client/api-client"],
    ["lib/relay/probe.ts", "@/lib/contracts/webhooks"],
    // Tests may reach across layers (an HTTP test uses the typed client, a provider test creates a workspace).
    ["lib/providers/probe.test.ts", "@/lib/enrichment/waterfall"],
  ])("allows %s importing %s", async (file, specifier) => {
    expect(await boundaryErrors(file, specifier)).toEqual([]);
  });
});
