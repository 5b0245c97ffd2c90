import path from "node:path";
import pg from "pg";
import { startSupervisedPostgres } from "./supervised-postgres";

export interface DatabaseServer {
  url: string;
  /** True when this process started the server (embedded) and must stop it on exit. */
  embedded: boolean;
  stop: () => Promise<void>;
}

/**
 * The database the app runs on: the server named by DATABASE_URL, or else an embedded PostgreSQL
 * with its cluster in `<dataDir>/postgres`, kept across restarts, and started again should it die. The app's own database inside the
 * embedded cluster is `signalbox`, created on first start.
 */
export async function openDatabaseServer(options: {
  databaseUrl?: string;
  dataDir: string;
  onLog?: (line: string) => void;
  /** One line each time the embedded server dies, is restarted, or fails to restart. */
  notice?: (line: string) => void;
}): Promise<DatabaseServer> {
  if (options.databaseUrl) return { url: options.databaseUrl, embedded: false, stop: async () => {} };
  const cluster = await startSupervisedPostgres({
    dataDir: path.resolve(options.dataDir),
    onLog: options.onLog,
    notice: options.notice ?? (() => {}),
  });
  const url = await ensureDatabase(cluster.url, "signalbox");
  return { url, embedded: true, stop: cluster.stop };
}

/** Creates `name` on the server if it is missing and returns its connection string. */
export async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
