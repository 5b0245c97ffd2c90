import { spawn, type ChildProcess } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { LoadJob, LoadResult } from "../load";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");

export interface ServerProcess {
  baseUrl: string;
  pid: number;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Spawns `node [nodeArgs] --import tsx <script>` (a compiled `.mjs` such as LAUNCHER_BUNDLE, the app as `npm start`
 * runs it, without tsx) and waits for it to print `Ready on http://…`.
 */
export async function startServerProcess(
  script: string,
  env: Record<string, string>,
  { timeoutMs = 180_000, nodeArgs = [] }: { timeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<ServerProcess> {
  const loader = script.endsWith(".mjs") ? [] : ["--import", "tsx"];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, ...loader, script], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start within ${timeoutMs} ms:\n${output}`)),
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
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${script} exited before it was ready:\n${output}`));
    });
  });
  return {
    baseUrl,
    pid: child.pid!,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * Runs `node --import tsx <script>` to completion with `input` on its stdin and returns the JSON of the last line it
 * printed; throws with what it wrote to stderr when it exits non-zero.
 */
export async function runScript<T>(
  script: string,
  { input = "", env = {} }: { input?: string; env?: Record<string, string> } = {},
): Promise<T> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, script)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
  child.stdin.end(input);
  const code = await exited;
  if (code !== 0) throw new Error(`${script} failed (exit ${code}):\n${stderr}`);
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as T;
}

/** Runs one load job in a separate process (bench/load.ts, the job on its stdin) and returns its result. */
export function runLoad(job: LoadJob): Promise<LoadResult> {
  return runScript<LoadResult>(path.join("bench", "load.ts"), { input: JSON.stringify(job) });
}

async function statusField(pid: number, field: string): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  return match ? Number(match[1]) * 1024 : null;
}

/**
 * The peak resident set size of a process over a stretch of time: the kernel's high-water mark (VmHWM, reset at the
 * start by writing 5 to /proc/<pid>/clear_refs), and samples of VmRSS every 20 ms where that reset is not allowed.
 */
export async function trackPeakRss(pid: number): Promise<{ stop: () => Promise<number> }> {
  const reset = await writeFile(`/proc/${pid}/clear_refs`, "5").then(
    () => true,
    () => false,
  );
  let sampled = (await statusField(pid, "VmRSS")) ?? 0;
  const timer = setInterval(() => {
    void statusField(pid, "VmRSS").then((rss) => (sampled = Math.max(sampled, rss ?? 0)));
  }, 20);
  return {
    stop: async () => {
      clearInterval(timer);
      const highWater = reset ? await statusField(pid, "VmHWM") : null;
      return Math.max(sampled, highWater ?? 0);
    },
  };
}

export async function currentRss(pid: number): Promise<number> {
  return (await statusField(pid, "VmRSS")) ?? 0;
}
