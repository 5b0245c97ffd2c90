import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isProcessAlive } from "@/lib/db/embedded-postgres";
import { endOfLifeWarning } from "@/lib/launcher/node-support";
import { startApp } from "./app-server";

// `npm start` as a new user runs it: no DATABASE_URL, so the launcher starts its own embedded PostgreSQL.
let dataDir: string;
const embedded = () => ({ DATABASE_URL: "", DATA_DIR: dataDir });

function postmasterPid(): Promise<number | null> {
  return readFile(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").then(
    (text) => Number(text.split("\n")[0]),
    () => null,
  );
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "signalbox-launcher-"));
});

afterAll(async () => {
  const pid = await postmasterPid();
  if (pid && isProcessAlive(pid)) process.kill(pid, "SIGINT");
  await rm(dataDir, { recursive: true, force: true });
});

/** The launcher's output from the first-run credentials to "Ready on", as lines; empty when either is missing. */
function firstRunBanner(output: string): string[] {
  const lines = output.split("\n");
  const first = lines.findIndex((line) => line.includes("First run:"));
  const ready = lines.findIndex((line) => line.includes("Ready on"));
  return first === -1 || ready < first ? [] : lines.slice(first, ready + 1);
}

describe("the launcher on an embedded database", () => {
  let liveKey = "";

  it("prints the demo workspace's keys and sign-in once, and serves them", async () => {
    const app = await startApp(embedded());
    try {
      const output = app.output();
      liveKey = /Live key\s+(sbx_live_\w+)/.exec(output)?.[1] ?? "";
      const testKey = /Test key\s+(sbx_test_\w+)/.exec(output)?.[1] ?? "";
      expect(liveKey).toMatch(/^sbx_live_[0-9A-Za-z]{40}$/);
      expect(testKey).toMatch(/^sbx_test_[0-9A-Za-z]{40}$/);
      expect(output).toMatch(/Sign-in\s+demo@signalbox\.local \/ [0-9A-Za-z]{16}/);
      expect(existsSync(path.join(dataDir, "postgres", "PG_VERSION"))).toBe(true);

      // The banner is one block: nothing logged while starting lands between the secrets and "Ready on".
      const banner = firstRunBanner(output);
      expect(banner.filter((line) => line !== "").map((line) => /^ {2}(\S+)/.exec(line)?.[1] ?? line)).toEqual([
        "First",
        "Workspace",
        "Live",
        "Test",
        "Sign-in",
        "Operator",
        "Try",
        "[signalbox] Sign-up is closed (SIGNUP=closed): owners invite people from the dashboard's Members page.",
        expect.stringMatching(/^\[signalbox\] Ready on http:/),
      ]);
      expect(output.includes("Warning: Node.js")).toBe(endOfLifeWarning(process.version, new Date()) !== null);

      const response = await fetch(`${app.baseUrl}/v1/workspace`, { headers: { authorization: `Bearer ${liveKey}` } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        data: { workspace: { name: "Demo workspace" }, apiKey: { mode: "live" } },
      });
    } finally {
      expect(await app.stop("SIGINT")).toBe(0);
    }
  });

  it("leaves no PostgreSQL running after SIGINT", async () => {
    const pid = await postmasterPid();
    expect(pid === null || !isProcessAlive(pid)).toBe(true);
  });

  it("keeps the workspace across restarts and prints no new keys", async () => {
    const app = await startApp(embedded());
    try {
      expect(app.output()).not.toContain("Live key");
      const response = await fetch(`${app.baseUrl}/v1/workspace`, { headers: { authorization: `Bearer ${liveKey}` } });
      expect(response.status).toBe(200);
    } finally {
      expect(await app.stop("SIGTERM")).toBe(0);
    }
  });

  it("recovers when the previous launcher was killed with SIGKILL", async () => {
    const crashed = await startApp(embedded());
    await crashed.stop("SIGKILL");
    const orphan = await postmasterPid();
    expect(orphan && isProcessAlive(orphan)).toBe(true);

    const app = await startApp(embedded());
    try {
      const response = await fetch(`${app.baseUrl}/v1/workspace`, { headers: { authorization: `Bearer ${liveKey}` } });
      expect(response.status).toBe(200);
      expect(orphan && isProcessAlive(orphan)).toBe(false);
    } finally {
      expect(await app.stop("SIGINT")).toBe(0);
    }
  });

  it("refuses to share a data folder with a running instance", async () => {
    const first = await startApp(embedded());
    try {
      await expect(startApp(embedded())).rejects.toThrow(/in use by another running Signalbox/);
      const response = await fetch(`${first.baseUrl}/healthz`);
      expect(response.status).toBe(200);
    } finally {
      await first.stop("SIGINT");
    }
  });
});
