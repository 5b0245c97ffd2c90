/**
 * The Signalbox launcher (`npm start` runs it compiled, lib/launcher/build.ts; `npm run dev` through tsx): builds the
 * app when no build exists, opens the database
 * (DATABASE_URL, or an embedded PostgreSQL under DATA_DIR), applies migrations, seeds the demo workspace on the
 * very first run, then serves Next.js. SIGINT/SIGTERM let requests in flight finish (lib/api/graceful-close.ts), then stop the embedded database.
 */
import { createServer, type Server } from "node:http";
import path from "node:path";
import process from "node:process";
import next from "next";
import { dropUnparsableCallbackCookies } from "@/lib/api/callback-cookie";
import { answerClientError } from "@/lib/api/client-error";
import { gracefulClose } from "@/lib/api/graceful-close";
import { answerApiPreflight, answerRequestTarget } from "@/lib/api/preflight";
import { ensureAppSecret } from "@/lib/app-secret";
import { ensureDemoWorkspace, type DemoCredentials } from "@/lib/launcher/demo-workspace";
import { dbPool, disconnectDb } from "@/lib/db/client";
import { openDatabaseServer } from "@/lib/db/database";
import { migrateDatabase } from "@/lib/db/migrate";
import { startForwardWorker, type ForwardWorker } from "@/lib/forwarding/forward-worker";
import { startDeliveryMaintenance } from "@/lib/inbox/delivery-maintenance";
import { forwardClientFromEnv } from "@/lib/outbound/from-env";
import { keepHeaderBytes } from "@/lib/api/header-bytes";
import { endAfterRequestBody } from "@/lib/api/request-drain";
import { handleIngestRequest, matchIngestPath } from "@/lib/api/ingest-http";
import { passIngestToNext, routeHandlerServes } from "@/lib/api/ingest-route";
import { stampSourceIp } from "@/lib/auth/sign-in-source";
import { resolveSourceIp, trustedProxies } from "@/lib/inbox/source-ip";
import { ensureBuild } from "@/lib/launcher/build";
import { setHeapGrowth } from "@/lib/launcher/heap-growth";
import { endOfLifeWarning } from "@/lib/launcher/node-support";
import { parseEnv, type Env } from "@/lib/env";

const dev = process.argv.includes("--dev");
process.env.NEXT_TELEMETRY_DISABLED = "1";
(process.env as Record<string, string>).NODE_ENV = dev ? "development" : "production";

/** How long SIGINT/SIGTERM wait for requests in flight before closing their connections (the hard stop is at 15 s). */
const SHUTDOWN_GRACE_MS = 8_000;

function log(message: string): void {
  console.info(`[signalbox] ${message}`);
}

/** The first run's credentials, as lines of the start-up banner. */
function demoCredentialLines(demo: DemoCredentials, baseUrl: string): string[] {
  return [
    "",
    "  First run: a demo workspace was created. These secrets are shown once; keep them.",
    "",
    `  Workspace   ${demo.workspaceName} (${demo.workspaceId})`,
    `  Live key    ${demo.liveKey}`,
    `  Test key    ${demo.testKey}`,
    `  Sign-in     ${demo.email} / ${demo.password}  (dashboard at ${baseUrl}/)`,
    "  Operator    This user runs the server: the dashboard's Operator page lists workspaces and adds funds.",
    "",
    `  Try it:     curl -H "Authorization: Bearer ${demo.liveKey}" ${baseUrl}/v1/workspace`,
    "",
  ];
}

/** Who can get an account, said at every start since the default (closed) surprises anyone expecting a sign-up page. */
const SIGN_UP_POLICIES: Record<Env["SIGNUP"], string> = {
  closed: "Sign-up is closed (SIGNUP=closed): owners invite people from the dashboard's Members page.",
  invite: "Sign-up is by invitation (SIGNUP=invite): owners invite into workspaces, operators invite new sign-ups.",
  open: "Sign-up is open (SIGNUP=open): anyone who can reach this server can create an account.",
};

/**
 * What start-up has to tell, printed as one block once the server listens, so nothing that Next.js or the app logs
 * while starting lands in the middle of the secrets or after "Ready on" (launcher tests check it is one block).
 */
function printBanner(lines: string[]): void {
  process.stdout.write(`${lines.join("\n")}\n`);
}

/**
 * Slow or idle clients (slow-loris) must not hold connections: headers must arrive within HTTP_HEADERS_TIMEOUT_MS, the
 * whole request within HTTP_REQUEST_TIMEOUT_MS (else Node answers 408 and closes), and an idle keep-alive connection
 * closes after HTTP_KEEP_ALIVE_TIMEOUT_MS. Node enforces the first two on a sweep every `connectionsCheckingInterval`
 * (30 s by default), kept here well below them.
 */
function serverTimeouts(env: Env) {
  const requestTimeout = env.HTTP_REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(env.HTTP_HEADERS_TIMEOUT_MS, requestTimeout); // Node refuses headers > request
  const connectionsCheckingInterval = Math.min(1_000, Math.max(50, Math.floor(headersTimeout / 4)));
  return {
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval,
  };
}

async function main(): Promise<void> {
  const env = parseEnv(process.env);
  setHeapGrowth(env.HEAP_GROWING_PERCENT);
  if (!dev) ensureBuild(process.cwd(), log);

  const database = await openDatabaseServer({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, notice: log });
  process.env.DATABASE_URL = database.url;
  log(
    database.embedded
      ? `Embedded PostgreSQL running, data in ${path.resolve(env.DATA_DIR, "postgres")}`
      : "Using the database at DATABASE_URL",
  );

  let server: Server | undefined;
  let closeServer: ((graceMs: number) => Promise<void>) | undefined;
  let forwardWorker: ForwardWorker | undefined;
  let stopMaintenance: (() => Promise<void>) | undefined;
  let stopping = false;
  const shutdown = async (reason: string, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    log(`${reason}, shutting down…`);
    setTimeout(() => process.exit(1), 15_000).unref();
    await closeServer?.(SHUTDOWN_GRACE_MS);
    await stopMaintenance?.();
    await forwardWorker?.stop().catch((error: unknown) => console.error("Could not stop forwarding cleanly:", error));
    await disconnectDb().catch(() => {});
    await database.stop().catch((error: unknown) => console.error("Could not stop PostgreSQL cleanly:", error));
    process.exit(exitCode);
  };
  process.on("SIGINT", () => void shutdown("SIGINT received", 0));
  process.on("SIGTERM", () => void shutdown("SIGTERM received", 0));

  try {
    const migrations = await migrateDatabase(database.url);
    if (migrations.applied.length) log(`Applied migrations: ${migrations.applied.join(", ")}`);
    process.env.SIGNALBOX_SECRET = env.SIGNALBOX_SECRET ?? (await ensureAppSecret(database.url));
    // Dashboard sign-in (next-auth) redirects to PUBLIC_BASE_URL when set, else to the host the browser used.
    if (env.PUBLIC_BASE_URL) process.env.NEXTAUTH_URL = env.PUBLIC_BASE_URL;
    else process.env.AUTH_TRUST_HOST = "1";
    const demo = await ensureDemoWorkspace();
    // Day partitions of the deliveries table and retention (lib/inbox/delivery-maintenance.ts).
    stopMaintenance = await startDeliveryMaintenance(dbPool(), log);
    if (env.FORWARD_WORKER)
      forwardWorker = await startForwardWorker({
        connectionString: database.url,
        concurrency: env.FORWARD_CONCURRENCY,
        sender: forwardClientFromEnv(),
      });

    const app = next({ dev, dir: process.cwd(), hostname: env.HOST, port: env.PORT });
    await app.prepare();
    const handle = app.getRequestHandler();
    server = createServer(serverTimeouts(env), (request, response) => {
      // `*` and absolute URLs as targets (Next.js: a 500, a redirect to the named host): lib/api/request-target.ts.
      if (answerRequestTarget(request, response)) return;
      // Webhook ingest is answered here, on plain node:http (lib/api/ingest-http.ts), unless INGEST_FAST_PATH=false hands
      // it to the route handler (what Next.js would refuse before the handler runs stays here); the rest is Next.js.
      const ingest = matchIngestPath(request.url ?? "");
      if (ingest && (env.INGEST_FAST_PATH || !routeHandlerServes(request.method, ingest)))
        return void handleIngestRequest(request, response, ingest);
      // Sign-in throttling counts per source address, and the ingest route handler records it: resolved here, where the
      // socket is (lib/auth/sign-in-source.ts).
      const forwardedFor = [request.headers["x-forwarded-for"] ?? []].flat().join(", ") || null;
      stampSourceIp(request, resolveSourceIp(request.socket.remoteAddress ?? "", forwardedFor, trustedProxies()));
      // INGEST_FAST_PATH=false: the route handler gets the request as received (lib/api/ingest-route.ts).
      if (ingest) return passIngestToNext(request, ingest, () => void handle(request, response));
      // API paths Next.js would answer without the API error body (bad %-encoding, unexported methods): lib/api/preflight.ts.
      if (!answerApiPreflight(request, response)) {
        // A callback cookie next-auth cannot parse made every session read a 500: lib/api/callback-cookie.ts.
        dropUnparsableCallbackCookies(request);
        // A delivery's /raw answers with the Content-Type bytes as received: lib/api/header-bytes.ts.
        keepHeaderBytes(request, response);
        // A body the route never reads is read before the connection closes: lib/api/request-drain.ts.
        endAfterRequestBody(request, response);
        void handle(request, response);
      }
    });
    // With the default limit this server kept only a request's first 1,023 headers and dropped the rest silently; a
    // delivery must keep them all. Node's header size limit (431) still bounds what a request can send.
    server.maxHeadersCount = 0;
    closeServer = gracefulClose(server);
    // Requests Node's parser refuses (URL and headers over 16 KiB, timeouts, bad HTTP) get the error body too.
    server.on("clientError", answerClientError);
    await new Promise<void>((resolve, reject) => {
      server?.once("error", reject);
      server?.listen(env.PORT, env.HOST, resolve);
    });
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    const host = env.HOST === "0.0.0.0" || env.HOST === "::" ? "localhost" : env.HOST;
    const baseUrl = env.PUBLIC_BASE_URL ?? `http://${host}:${port}`;
    const nodeWarning = endOfLifeWarning(process.version, new Date());
    printBanner([
      ...(nodeWarning ? [`[signalbox] Warning: ${nodeWarning}`] : []),
      ...(demo ? demoCredentialLines(demo, baseUrl) : []),
      `[signalbox] ${SIGN_UP_POLICIES[env.SIGNUP]}`,
      `[signalbox] Ready on ${baseUrl} (${dev ? "development" : "production"})`,
    ]);
  } catch (error) {
    console.error(`[signalbox] Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
    await shutdown("Start-up failed", 1);
  }
}

main().catch((error: unknown) => {
  console.error(`[signalbox] Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
