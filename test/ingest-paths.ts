export interface IngestPath {
  name: string;
  /** Served by app/webhooks/ingest/[hookId]/route.ts rather than by the launcher itself. */
  routeHandler: boolean;
  /** For `startApp`. */
  env: Record<string, string>;
}

/**
 * The two servers of webhook ingest in a launched app: the launcher's node:http fast path (the default) and the
 * Next.js route handler it hands ingest to with INGEST_FAST_PATH=false, as deployments without the launcher serve it.
 * Ingest suites run against both with `describe.each(INGEST_PATHS)`, passing `env` to `startApp`.
 */
export const INGEST_PATHS: IngestPath[] = [
  { name: "fast path", routeHandler: false, env: {} },
  { name: "route handler", routeHandler: true, env: { INGEST_FAST_PATH: "false" } },
];
