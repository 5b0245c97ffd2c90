import { z } from "zod";

// Environment is read once, validated, and typed. A bad value stops start-up with a message naming it.
const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" }).optional()),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DATA_DIR: z.string().default(".data"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  PUBLIC_BASE_URL: optionalString.pipe(z.url().optional()),
  /** Signs pagination cursors (and later sessions). Generated and kept in the database when not set. */
  SIGNALBOX_SECRET: optionalString.pipe(z.string().min(32, { error: "must be at least 32 characters" }).optional()),
  /** Proxies whose X-Forwarded-For is believed: comma-separated IPs or CIDRs. */
  TRUSTED_PROXIES: z.string().default(""),
  /** Optional OAuth sign-in for the dashboard: each provider is enabled when both of its values are set. */
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  /** Waterfall priority: provider ids, comma-separated; listed ones run first in this order, the rest after. */
  ENRICHMENT_PROVIDER_ORDER: z.string().default(""),
  /** Where YouTube's player data is fetched from (tests point it at a local fake). */
  YOUTUBE_BASE_URL: optionalString.pipe(z.url().optional()),
  /** Enables the email-finder vendor adapter (domain search). */
  HUNTER_API_KEY: optionalString,
  HUNTER_API_URL: optionalString.pipe(z.url().optional()),
});

export type Env = z.infer<typeof envSchema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`).join("\n");
    throw new Error(`Invalid environment:\n${problems}`);
  }
  return parsed.data;
}

let cached: Env | undefined;

/** The validated environment. Read lazily so `process.env.DATABASE_URL` set by the launcher is seen. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
