import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
export const RELAY_BIN = path.join(ROOT, "bin", "signalbox.mjs");

/** One request the receiver got: its body, headers, and the status it answered (null: it never answered). */
export interface ReceivedRequest {
  body: Buffer;
  headers: http.IncomingHttpHeaders;
  /** Header names and values exactly as sent, in order. */
  rawHeaders: string[];
  status: number | null;
}

/** How the receiver answers one request: a status, or `hang` (never answers). */
export type ReceiverAnswer = number | "hang";

/**
 * A local webhook receiver on 127.0.0.1 (node:http) that logs every request before it answers, so a 2xx in the log
 * always precedes the relay's acknowledgement. `answer` decides each status; `stop` refuses connections from then on
 * (the port is kept for `start`).
 */
export async function startReceiver(answer: (request: ReceivedRequest, index: number) => ReceiverAnswer = () => 200) {
  const log: ReceivedRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const received: ReceivedRequest = {
        body: Buffer.concat(chunks),
        headers: request.headers,
        rawHeaders: request.rawHeaders,
        status: null,
      };
      const decision = receiver.answer(received, log.length);
      log.push(received);
      if (decision === "hang") return;
      received.status = decision;
      response.writeHead(decision, { "content-type": "text/plain" }).end(decision < 300 ? "ok" : "failed");
    });
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  const receiver = {
    answer,
    log,
    url: `http://127.0.0.1:${port}/webhooks`,
    /** Requests it answered with a 2xx. */
    accepted: () => log.filter((entry) => entry.status !== null && entry.status >= 200 && entry.status < 300),
    /** Closes the port (connections refused) and every open connection. */
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    /** Listens on the same port again. */
    start: () => listen(port).then(() => undefined),
  };
  return receiver;
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export interface RunningRelay {
  process: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** The relay's delivery lines on standard output. */
  lines: () => string[];
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/** Runs `signalbox <args>` through the package's bin on plain node, as `npx signalbox` does. */
export function startRelay(args: string[], env: Record<string, string | undefined>): RunningRelay {
  const child = spawn(process.execPath, [RELAY_BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, SIGNALBOX_API_KEY: undefined, SIGNALBOX_URL: undefined, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    process: child,
    stdout: () => stdout,
    stderr: () => stderr,
    lines: () => stdout.split("\n").filter(Boolean),
    exited,
  };
}

/** Sends a webhook through node:http (fetch would refuse or add headers); the ingest answer's delivery id. */
export function sendWebhook(url: string, body: Buffer | string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST", headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString();
        if (response.statusCode !== 200) return reject(new Error(`ingest answered ${response.statusCode}: ${text}`));
        resolve((JSON.parse(text) as { deliveryId: string }).deliveryId);
      });
    });
    request.on("error", reject);
    request.end(body);
  });
}
