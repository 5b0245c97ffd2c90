import { createResponseChecker, type Exchange } from "./check-response";
import type { OpenApiDocument } from "./match-operation";

/*
 * Collects every answer an integration test file receives from the apps it started (test/app-server.ts registers
 * each one) and checks it against the document that app serves at /v1/openapi.json. `fetch` is wrapped once per file
 * (test/openapi-conformance/setup.ts); the raw-socket client (test/hostile/raw-http.ts) reports its answers itself.
 */

type Checker = ReturnType<typeof createResponseChecker>;

interface Recorder {
  originalFetch: typeof fetch;
  checkers: Map<string, Promise<Checker>>;
  pending: Promise<void>[];
  violations: string[];
}

// One recorder per test file; kept on globalThis so that every module instance of this file shares it.
const SLOT = Symbol.for("signalbox.openApiConformance");
const holder = globalThis as typeof globalThis & { [SLOT]?: Recorder };

/** Wraps `fetch` for this test file, so that answers from registered apps are checked. */
export function installConformanceRecorder(): void {
  // A worker may run several files: start afresh, around the real fetch.
  const originalFetch = holder[SLOT]?.originalFetch ?? globalThis.fetch;
  const recorder: Recorder = { originalFetch, checkers: new Map(), pending: [], violations: [] };
  holder[SLOT] = recorder;
  globalThis.fetch = async (input, init) => {
    const response = await recorder.originalFetch(input, init);
    const requested = new URL(input instanceof Request ? input.url : String(input));
    if (!recorder.checkers.has(requested.origin)) return response;
    // After a redirect the answer is the redirect target's, to a GET.
    const url = response.redirected ? new URL(response.url) : requested;
    const method = response.redirected ? "GET" : (init?.method ?? (input instanceof Request ? input.method : "GET"));
    const headers = Object.fromEntries(response.headers);
    const eventStream = (headers["content-type"] ?? "").startsWith("text/event-stream");
    const body: Promise<Buffer | null> = eventStream
      ? Promise.resolve(null)
      : response
          .clone()
          .arrayBuffer()
          .then(
            (bytes) => Buffer.from(bytes),
            () => null, // the test aborted the request: status and headers are still checked
          );
    recordExchange(
      url.origin,
      body.then((bytes) => ({
        method: method.toUpperCase(),
        target: url.pathname + url.search,
        status: response.status,
        headers,
        body: bytes,
      })),
    );
    return response;
  };
}

/**
 * Checks the answers of the app at `baseUrl` from now on, against the document it serves. Resolves once the document
 * is read (or could not be), so a caller that stops the app right away does not cut the download short.
 */
export async function watchApp(baseUrl: string): Promise<void> {
  const recorder = holder[SLOT];
  if (!recorder) return; // not an integration file (the faults project starts apps too)
  const origin = new URL(baseUrl).origin;
  const checker = recorder
    .originalFetch(`${origin}/v1/openapi.json`)
    .then((response) => response.json() as Promise<OpenApiDocument>)
    .then(createResponseChecker)
    .catch((error: unknown) => {
      throw new Error(`Could not read ${origin}/v1/openapi.json: ${String(error)}`);
    });
  recorder.checkers.set(origin, checker);
  // A failure is reported with the first answer it should have checked.
  await checker.then(
    () => undefined,
    () => undefined,
  );
}

/** Checks one answer from the app at `origin` (ignored when no app was registered there). */
export function recordExchange(origin: string, exchange: Promise<Exchange> | Exchange): void {
  const recorder = holder[SLOT];
  const checker = recorder?.checkers.get(new URL(origin).origin);
  if (!recorder || !checker) return;
  recorder.pending.push(
    Promise.all([checker, exchange]).then(
      ([check, answer]) => void recorder.violations.push(...check(answer)),
      (error: unknown) => void recorder.violations.push(`Could not check an answer: ${String(error)}`),
    ),
  );
}

/** Ids differ from answer to answer; the same drift on another delivery is the same violation. */
const normalizeIds = (violation: string) =>
  violation
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>")
    .replace(/\b(we|key|ws|usr)_[0-9A-Za-z]{20,}/g, "$1_<id>");

/** Every violation seen so far, once each, after the answers still being read have arrived. */
export async function conformanceViolations(): Promise<string[]> {
  const recorder = holder[SLOT];
  if (!recorder) return [];
  await Promise.all(recorder.pending);
  return [...new Set(recorder.violations.map(normalizeIds))];
}
