/**
 * The build steps package.json runs: `bundle` compiles the launcher (after `next build` in `npm run build`);
 * `ensure-build` builds whatever is stale before `npm start` runs the bundle with plain node.
 */
import process from "node:process";
import { bundleLauncher, ensureBuild } from "./build";

const command = process.argv[2];
if (command === "bundle") bundleLauncher(process.cwd());
else if (command === "ensure-build") ensureBuild(process.cwd(), (message) => console.info(`[signalbox] ${message}`));
else {
  console.error("Usage: tsx lib/launcher/cli.ts bundle|ensure-build");
  process.exit(2);
}
