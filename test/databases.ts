import { randomBytes } from "node:crypto";
import pg from "pg";

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new, empty-but-migrated database cloned from the run's template. Cloning takes milliseconds. */
export async function cloneDatabase(
  serverUrl: string,
  template: string,
  prefix = "test",
): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  return { name, url: databaseUrl(serverUrl, name) };
}

export async function createEmptyDatabase(serverUrl: string, prefix = "test"): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  return { name, url: databaseUrl(serverUrl, name) };
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
