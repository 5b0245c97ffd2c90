import { randomBytes } from "node:crypto";
import pg from "pg";
import { env } from "@/lib/env";

const SECRET_KEY = "signalbox_secret";

/**
 * The server secret: SIGNALBOX_SECRET when the operator sets one, otherwise a random one generated on the first start
 * and kept in `app_settings`, so every instance on the same database signs and checks with the same key.
 */
export async function ensureAppSecret(connectionString: string): Promise<string> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(`INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, [
      SECRET_KEY,
      randomBytes(32).toString("base64url"),
    ]);
    const { rows } = await client.query<{ value: string }>(`SELECT value FROM app_settings WHERE key = $1`, [
      SECRET_KEY,
    ]);
    return rows[0]!.value;
  } finally {
    await client.end();
  }
}

export function appSecret(): string {
  const secret = env().SIGNALBOX_SECRET;
  if (!secret) throw new Error("SIGNALBOX_SECRET is not set: start the app with `npm start`, which provides it.");
  return secret;
}
