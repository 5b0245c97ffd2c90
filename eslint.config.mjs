import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

/*
 * The layers, bottom to top. Each lib folder may import the shared bottom and the folders listed for it, nothing else;
 * arrows point one way (README "Project layout"). Tests may reach across (an HTTP test uses the client, a provider
 * test creates a workspace), so the boundaries bind source files only.
 */
const SHARED = [
  "lib/errors.ts",
  "lib/ids.ts",
  "lib/env.ts",
  "lib/cursor.ts",
  "lib/array-set.ts",
  "lib/app-secret.ts",
  "lib/contracts",
  "lib/db",
];
const DOMAIN = [
  "lib/auth",
  "lib/ratelimit",
  "lib/outbound",
  "lib/billing",
  "lib/providers",
  "lib/inbox",
  "lib/enrichment",
  "lib/media",
  "lib/forwarding",
];
const MAY_IMPORT = {
  "lib/outbound": [],
  "lib/auth": [],
  "lib/ratelimit": ["lib/auth"],
  "lib/billing": ["lib/auth"],
  "lib/providers": ["lib/outbound"],
  "lib/inbox": ["lib/auth", "lib/ratelimit"],
  "lib/enrichment": ["lib/auth", "lib/billing", "lib/providers"],
  "lib/media": ["lib/auth", "lib/billing", "lib/outbound"],
  "lib/forwarding": ["lib/auth", "lib/ratelimit", "lib/outbound", "lib/inbox"],
  // The HTTP layer: the route wrapper, the node:http ingest path, OpenAPI. Imported by app/ and the launcher only.
  "lib/api": DOMAIN,
  "lib/launcher": [...DOMAIN, "lib/api"],
  // The typed fetch client runs in the browser: contracts only.
  "lib/client": [],
  // The relay (`signalbox listen`) runs on a developer's machine and talks to the service over HTTP only.
  "lib/relay": ["lib/client"],
};
// Code that runs outside the server: it may import lib/contracts and its MAY_IMPORT list, none of the server's bottom.
const CLIENT_SIDE = ["lib/client", "lib/relay"];
const EVERY_FOLDER = [...DOMAIN, "lib/api", "lib/launcher", "lib/client", "lib/relay", "app"];

const zones = [
  // The shared bottom imports nothing above it.
  ...SHARED.map((target) => ({
    target,
    from: EVERY_FOLDER,
    message: "The shared bottom of lib/ imports nothing above it.",
  })),
  ...Object.entries(MAY_IMPORT).map(([target, allowed]) => {
    const clientSide = CLIENT_SIDE.includes(target);
    const also = allowed.length ? ` and ${allowed.join(", ")}` : "";
    return {
      target,
      from: (clientSide ? [...EVERY_FOLDER, ...SHARED] : EVERY_FOLDER).filter(
        (folder) => folder !== target && folder !== "lib/contracts" && !allowed.includes(folder),
      ),
      message: clientSide
        ? `${target} runs outside the server: it may import lib/contracts${also} only.`
        : `${target} may import the shared bottom${also} only (layers: eslint.config.mjs).`,
    };
  }),
  { target: "app", from: "lib/launcher", message: "The launcher's helpers belong to server.ts." },
  { target: "app", from: "lib/relay", message: "The relay is a command-line program, not part of the app." },
];

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      ".data/**",
      "lib/db/generated/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": ["error", { allow: ["warn", "error", "info"] }],
    },
  },
  {
    // Domain code never reaches into HTTP routes or React (DESIGN §1).
    files: ["lib/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["@/app/*", "react", "react-dom"], message: "lib/ must not depend on app/ or React." }] },
      ],
    },
  },
  {
    files: ["lib/**/*.ts", "app/**/*.ts", "app/**/*.tsx"],
    ignores: ["**/*.test.ts"],
    rules: { "import/no-restricted-paths": ["error", { zones }] },
  },
);
