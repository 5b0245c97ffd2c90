import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LAUNCHER_BUNDLE, staleBuildReason } from "./build";

let root: string;

/** Writes `file` under the temporary root with its modification time `secondsAgo` in the past. */
function write(file: string, secondsAgo: number): void {
  const full = path.join(root, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, "x");
  const time = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(full, time, time);
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "signalbox-build-"));
  write("server.ts", 100);
  write("lib/inbox/ingest-delivery.ts", 100);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("staleBuildReason", () => {
  it("asks for a build when there is none", () => {
    expect(staleBuildReason(root)).toBe("no production build found");
  });

  it("asks for a build when the launcher bundle is missing, even with a fresh Next.js build", () => {
    write(".next/BUILD_ID", 10);
    expect(staleBuildReason(root)).toBe("no production build found");
  });

  it("is satisfied when both the Next.js build and the bundle are newer than every source", () => {
    write(".next/BUILD_ID", 10);
    write(LAUNCHER_BUNDLE, 10);
    expect(staleBuildReason(root)).toBeNull();
  });

  it("names the launcher's source when it changed after the bundle was made", () => {
    write(".next/BUILD_ID", 10);
    write(LAUNCHER_BUNDLE, 10);
    write("server.ts", 1);
    expect(staleBuildReason(root)).toBe("server.ts changed since the last build");
  });

  it("rebuilds when the bundle is older than a source, though the Next.js build is newer", () => {
    write(".next/BUILD_ID", 1);
    write(LAUNCHER_BUNDLE, 50);
    write("lib/inbox/ingest-delivery.ts", 20);
    expect(staleBuildReason(root)).toBe("lib changed since the last build");
  });

  it("ignores the relay, which the app never imports, but not the client it shares", () => {
    write(".next/BUILD_ID", 10);
    write(LAUNCHER_BUNDLE, 10);
    write("lib/relay/relay.ts", 1);
    expect(staleBuildReason(root)).toBeNull();
    write("lib/client/api-client.ts", 1);
    expect(staleBuildReason(root)).toBe("lib changed since the last build");
  });

  it("ignores test files", () => {
    write(".next/BUILD_ID", 10);
    write(LAUNCHER_BUNDLE, 10);
    write("lib/inbox/ingest-delivery.test.ts", 1);
    expect(staleBuildReason(root)).toBeNull();
  });
});
