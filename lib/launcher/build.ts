import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";

// What the production build is made from. Test files are not part of it, so editing one never forces a rebuild; nor is
// the relay (`signalbox listen`, run by tsx from bin/), which the app never imports (lint: eslint.config.mjs).
const NOT_BUILT = [path.join("lib", "relay")];
const SOURCES = [
  "app",
  "lib",
  "server.ts",
  "next.config.js",
  "package-lock.json",
  "tsconfig.json",
  path.join("prisma", "schema.prisma"),
];

/** The launcher compiled to one file (`npm start` runs it with plain node); packages stay in node_modules. */
export const LAUNCHER_BUNDLE = path.join(".next", "launcher", "server.mjs");

function newestMtime(entry: string): number {
  let stats;
  try {
    stats = statSync(entry);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return /\.test\.tsx?$/.test(entry) ? 0 : stats.mtimeMs;
  if (NOT_BUILT.some((folder) => entry.endsWith(path.sep + folder))) return 0;
  // Files only: a folder's own time changes whenever a file (say, a new test) is added to it.
  let newest = 0;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** Why the app needs a (re)build, or null when `.next` and the launcher bundle are newer than every source. */
export function staleBuildReason(root: string): string | null {
  const built = Math.min(
    newestMtime(path.join(root, ".next", "BUILD_ID")),
    newestMtime(path.join(root, LAUNCHER_BUNDLE)),
  );
  if (!built) return "no production build found";
  const changed = SOURCES.find((source) => newestMtime(path.join(root, source)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

/**
 * Compiles server.ts and the lib/ code it imports into LAUNCHER_BUNDLE. Run through tsx, the launcher paid for tsx's
 * `keepNames`: every closure made per request (the ingest fast path makes several) went through an
 * `Object.defineProperty` call, and the app spent about a fifth more CPU per 1 KB delivery (bench:profile).
 */
export function bundleLauncher(root: string): void {
  buildSync({
    absWorkingDir: root,
    entryPoints: ["server.ts"],
    outfile: LAUNCHER_BUNDLE,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    logLevel: "warning",
  });
}

/** Runs `next build` (after `prisma generate`, which the build imports), then bundles the launcher; throws on failure. */
export function buildApp(root: string): void {
  const run = (args: string[]) =>
    spawnSync(process.execPath, args, {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
  const generate = run([path.join(root, "node_modules", "prisma", "build", "index.js"), "generate"]);
  if (generate.status !== 0) throw new Error("`prisma generate` failed; see the output above.");
  const build = run([path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"]);
  if (build.status !== 0) throw new Error("`next build` failed; see the output above.");
  bundleLauncher(root);
}

/** Builds the app when a source changed since the last build (or there is none); `log` says why first. */
export function ensureBuild(root: string, log: (message: string) => void): void {
  const reason = staleBuildReason(root);
  if (!reason) return;
  log(`Building the app (${reason}); this takes a minute or two…`);
  buildApp(root);
}
