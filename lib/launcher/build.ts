import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

// What the production build is made from. Test files are not part of it, so editing one never forces a rebuild.
const SOURCES = [
  "app",
  "lib",
  "next.config.js",
  "package-lock.json",
  "tsconfig.json",
  path.join("prisma", "schema.prisma"),
];

function newestMtime(entry: string): number {
  let stats;
  try {
    stats = statSync(entry);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return /\.test\.tsx?$/.test(entry) ? 0 : stats.mtimeMs;
  // Files only: a folder's own time changes whenever a file (say, a new test) is added to it.
  let newest = 0;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** Why the app needs a (re)build, or null when `.next` is newer than every source. */
export function staleBuildReason(root: string): string | null {
  const built = newestMtime(path.join(root, ".next", "BUILD_ID"));
  if (!built) return "no production build found";
  const changed = SOURCES.find((source) => newestMtime(path.join(root, source)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

/** Runs `next build` (after `prisma generate`, which the build imports) and throws if it fails. */
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
}
