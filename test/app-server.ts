import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { inject } from "vitest";
import { LAUNCHER_BUNDLE } from "@/lib/launcher/build";
import { watchApp } from "./openapi-conformance/record";
import { asProductRole } from "./tenant-statements";

export interface RunningApp {
  baseUrl: string;
  process: ChildProcess;
  /** Everything the launcher printed so far (stdout and stderr). */
  output: () => string;
  /** Sends `signal` and waits for the process to exit; resolves with its exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

const ROOT = path.resolve(import.meta.dirname, "..");

/**
 * Starts the real launcher as `npm start` runs it (the compiled LAUNCHER_BUNDLE on plain node) in its own process on a
 * free port and waits until it is ready. The global setup has made sure the build and the bundle are fresh, so
 * launchers started in parallel never build. The environment defaults to the test file's DATABASE_URL; pass `DATABASE_URL: ""` to use an embedded server.
 * On the run's server the app logs in as its own role, so that the run can check the statements it ran
 * (test/tenant-statements.ts).
 */
export async function startApp(env: Record<string, string> = {}, timeoutMs = 60_000): Promise<RunningApp> {
  const databaseUrl = env.DATABASE_URL ?? process.env.DATABASE_URL ?? "";
  const child = spawn(process.execPath, [LAUNCHER_BUNDLE], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
      DATABASE_URL: inject("checksTenantStatements") ? asProductRole(databaseUrl, inject("postgresUrl")) : databaseUrl,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`App did not start within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const check = () => {
      const match = /Ready on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`App exited with code ${code} before it was ready:\n${output}`));
    });
  });

  await watchApp(baseUrl);
  return {
    baseUrl,
    process: child,
    output: () => output,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
