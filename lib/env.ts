import { isIP } from "node:net";
import { z } from "zod";

// Environment is read once, validated, and typed. A bad value stops start-up with a message naming it.
const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

/** "true"/"1" or "false"/"0"; unset or empty: `fallback`. */
const flag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", ""])
    .default("")
    .transform((value) => (value === "" ? fallback : value === "true" || value === "1"));

/** "http=8080,https=8443" → { http: 8080, https: 8443 }. */
const portOverrides = z
  .string()
  .default("")
  .transform((value, context) => {
    const ports: { http?: number; https?: number } = {};
    for (const entry of value
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean)) {
      const match = /^(https?)=(\d{1,5})$/.exec(entry);
      if (!match) {
        context.addIssue({ code: "custom", message: `"${entry}" is not scheme=port (http=8080, https=8443)` });
        return z.NEVER;
      }
      ports[match[1] as "http" | "https"] = Number(match[2]);
    }
    return ports;
  });

/**
 * FORWARD_ALLOW_PRIVATE: "true"/"1" opens private and loopback addresses to forwarding; otherwise a comma-separated
 * list of CIDR ranges (a bare address is a /32 or /128); unset, empty, "false" or "0": public addresses only.
 */
const forwardAllowance = z
  .string()
  .trim()
  .default("")
  .transform((value, context) => {
    if (["", "false", "0"].includes(value)) return { private: false, ranges: [] };
    if (["true", "1"].includes(value)) return { private: true, ranges: [] };
    const ranges: (readonly [string, number])[] = [];
    for (const entry of value
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean)) {
      const problem = cidrProblem(entry);
      if (problem !== undefined) {
        context.addIssue({ code: "custom", message: `"${entry}" ${problem}` });
        return z.NEVER;
      }
      const [address = "", prefix] = entry.split("/");
      ranges.push([address, prefix === undefined ? (isIP(address) === 6 ? 128 : 32) : Number(prefix)]);
    }
    return { private: false, ranges };
  });

/** Why `entry` is not an address or CIDR range we can match, or undefined when it is one. */
function cidrProblem(entry: string): string | undefined {
  const expected = "is not true, false or a CIDR range (10.0.0.0/8, fd00::/8, 127.0.0.1)";
  const [address = "", prefix, extra] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return expected;
  // Addresses are matched in their own family, so an IPv4-mapped range would never match an IPv4 peer.
  if (family === 6 && /^::ffff:/i.test(address)) return "is an IPv4-mapped IPv6 range: write it as IPv4";
  if (prefix === undefined) return undefined;
  const bits = family === 6 ? 128 : 32;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) return `has a prefix length that is not 0 to ${bits}`;
  return undefined;
}

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  DATABASE_URL: optionalString.pipe(
    z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" }).optional(),
  ),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Longest wait for a database connection (a new one, or a turn in a full pool) before answering 503. */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /**
   * Longest a statement may run: PostgreSQL cancels it (statement_timeout), and a server that does not answer at all
   * (frozen) is given up on a second later; either answers 503.
   */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  DATA_DIR: z.string().default(".data"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  /** Slow or idle clients (slow-loris): time to send all request headers, and the whole request (headers + body). */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /**
   * How long an idle keep-alive connection stays open after a response. Above the common load balancers' idle timeout
   * (60 s), and well above clients' own (Node's HTTP client keeps 4 s), so the client or balancer closes an idle
   * connection first: with Node's 5 s the server closed connections clients were just reusing, and their requests
   * failed mid-send.
   */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(65_000),
  /**
   * Slow webhook bodies: over every INGEST_BODY_RATE_GRACE_MS while a body is read, at least this many bytes a second
   * must arrive on average, else the sender is cut with a 408; 0 turns it off.
   */
  INGEST_MIN_BYTES_PER_SECOND: z.coerce.number().int().min(0).max(1_073_741_824).default(1_024),
  INGEST_BODY_RATE_GRACE_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  /**
   * The launcher answers webhook ingest itself, on plain node:http (lib/api/ingest-http.ts); false hands it to the
   * Next.js route handler (app/webhooks/ingest/[hookId]/route.ts), as deployments without the launcher serve it.
   */
  INGEST_FAST_PATH: flag(true),
  /**
   * This instance runs forwarding jobs (attempts to destinations). Any number of instances may; false leaves them to
   * the others, e.g. to keep a dedicated ingest tier.
   */
  FORWARD_WORKER: flag(true),
  /** Forwarding attempts in flight at once on this instance. */
  FORWARD_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * How far the launcher lets V8's old generation grow past what a full collection kept, in percent
   * (lib/launcher/heap-growth.ts); 0 leaves V8's own growth factor.
   */
  HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(1_000).default(100),
  PUBLIC_BASE_URL: optionalString.pipe(z.url().optional()),
  /** Signs pagination cursors (and later sessions). Generated and kept in the database when not set. */
  SIGNALBOX_SECRET: optionalString.pipe(z.string().min(32, { error: "must be at least 32 characters" }).optional()),
  /** Proxies whose X-Forwarded-For is believed: comma-separated IPs or CIDRs. */
  TRUSTED_PROXIES: z.string().default(""),
  /** Requests per minute per API key (dashboard sessions: per user) on /v1, shared by all instances; 0 turns it off. */
  RATE_LIMIT_API_PER_MINUTE: z.coerce.number().int().min(0).max(10_000_000).default(6_000),
  /** Requests per minute per workspace on /v1, all its keys and users together; 0 turns it off. */
  RATE_LIMIT_WORKSPACE_PER_MINUTE: z.coerce.number().int().min(0).max(100_000_000).default(24_000),
  /** Unrevoked API keys a workspace may hold (each has its own rate limit). */
  MAX_API_KEYS_PER_WORKSPACE: z.coerce.number().int().min(1).max(100_000).default(100),
  /** Webhook endpoints a workspace may hold. */
  MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
  /** Deliveries per minute per webhook endpoint, shared by all instances; 0 turns it off. */
  RATE_LIMIT_INGEST_PER_MINUTE: z.coerce.number().int().min(0).max(100_000_000).default(600_000),
  /**
   * Refused ingest requests recorded per second per endpoint and instance (lib/inbox/rejection-log.ts), after a burst of
   * up to REJECTION_BURST (or this many, if more); the rest are only counted. 0 records none after the burst.
   */
  REJECTION_LOG_PER_SECOND: z.coerce.number().int().min(0).max(10_000).default(2),
  /** Length of the fixed rate-limit windows; the per-minute limits are scaled to it (rounded up). */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
  /**
   * Open event streams (GET /v1/webhook-endpoints/deliveries/events) per API key (dashboard sessions: per user) and per
   * workspace, counted per instance; 0 for no cap. Over a cap: 429 `rate_limited` with `Retry-After`.
   */
  EVENT_STREAMS_PER_KEY: z.coerce.number().int().min(0).max(100_000).default(20),
  EVENT_STREAMS_PER_WORKSPACE: z.coerce.number().int().min(0).max(100_000).default(100),
  /**
   * Who may create an account. `closed` (default): the first user comes from the launcher, everyone else through an
   * owner's invitation into a workspace. `invite`: also through an operator's sign-up invitation, with a workspace of
   * their own. `open`: anyone who can reach the server signs up.
   */
  SIGNUP: z.enum(["closed", "invite", "open"], { error: "must be closed, invite or open" }).default("closed"),
  /** Optional OAuth sign-in for the dashboard: each provider is enabled when both of its values are set. */
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  /** Waterfall priority: provider ids, comma-separated; listed ones run first in this order, the rest after. */
  ENRICHMENT_PROVIDER_ORDER: z.string().default(""),
  /** Provider ids to leave out entirely, comma-separated (e.g. "website" for an operator who wants no crawling). */
  ENRICHMENT_PROVIDERS_DISABLED: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((id) => id.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** Where YouTube's player data is fetched from (tests point it at a local fake). */
  YOUTUBE_BASE_URL: optionalString.pipe(z.url().optional()),
  /** Enables the email-finder vendor adapter (domain search). */
  HUNTER_API_KEY: optionalString,
  HUNTER_API_URL: optionalString.pipe(z.url().optional()),
  /** Enables the company data adapter (funding). */
  PEOPLEDATALABS_API_KEY: optionalString,
  PEOPLEDATALABS_API_URL: optionalString.pipe(z.url().optional()),
  /** Enables the technographics adapter. */
  BUILTWITH_API_KEY: optionalString,
  BUILTWITH_API_URL: optionalString.pipe(z.url().optional()),
  /** Funding from public SEC EDGAR Form D filings (no account); "false" turns it off. URLs are for tests. */
  SEC_EDGAR_ENABLED: z
    .enum(["true", "false"])
    .default("true")
    .transform((value) => value === "true"),
  SEC_EDGAR_SEARCH_URL: optionalString.pipe(z.url().optional()),
  SEC_EDGAR_ARCHIVE_URL: optionalString.pipe(z.url().optional()),
  /** DNS servers for collectors (host names, MX, SPF, DMARC): comma-separated ip or ip:port; default the system's. */
  DNS_SERVERS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((server) => server.trim())
        .filter(Boolean),
    ),
  /** A contact (email or URL) added to the crawler's User-Agent, as SEC EDGAR and polite crawling ask. */
  OUTBOUND_CONTACT: optionalString,
  /** Pages the website collector reads per company. */
  CRAWL_MAX_PAGES: z.coerce.number().int().min(1).max(50).default(12),
  /**
   * Forwarding destinations on private or loopback addresses (self-hosters forward to internal services): "true", or
   * CIDR ranges. Link-local and cloud metadata addresses stay refused unless a listed range lies inside them.
   */
  FORWARD_ALLOW_PRIVATE: forwardAllowance,
  /** Tests only: let collectors reach loopback (127.0.0.0/8, ::1). Never set in production. */
  OUTBOUND_ALLOW_LOOPBACK: flag(false),
  /** Tests only: connect URLs without a port to these ports ("http=8080,https=8443"), so fake sites need no port 80. */
  OUTBOUND_TEST_PORTS: portOverrides,
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
