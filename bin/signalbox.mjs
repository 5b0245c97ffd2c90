#!/usr/bin/env node
// `npx signalbox …` in a checkout, without a build step: tsx compiles the TypeScript CLI as it is imported, with the
// project's tsconfig (for its `@/` paths) wherever the command is run from.
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const { main } = await tsImport("../lib/relay/cli.ts", {
  parentURL: import.meta.url,
  tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)),
});
process.exit(await main(process.argv.slice(2), process.env));
