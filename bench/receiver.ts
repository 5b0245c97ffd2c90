/**
 * The forwarding benchmark's destination, in its own process: a node:http server on 127.0.0.1 that reads each request
 * and answers 200 at once (keep-alive, as Node serves by default), keeping the arrival time (ms since the epoch) of the
 * first request per `webhook-id` header (the delivery or queue row id) and how many came again. The bench reads what
 * arrived with `GET /arrivals` and clears it with `POST /reset`; every other request is a delivery. Prints `Ready on
 * http://…` once listening (bench/lib/processes.ts waits for it) and stops on SIGTERM.
 *
 * Environment: PORT, HOST.
 */
import { createServer } from "node:http";
import process from "node:process";

const arrivals = new Map<string, number>();
let requests = 0;
let duplicates = 0;
let unsigned = 0;

const server = createServer((request, response) => {
  if (request.method === "GET" && request.url === "/arrivals") {
    const answer = JSON.stringify({ requests, duplicates, unsigned, arrivals: [...arrivals] });
    response.writeHead(200, { "content-type": "application/json" }).end(answer);
    return;
  }
  if (request.method === "POST" && request.url === "/reset") {
    arrivals.clear();
    requests = duplicates = unsigned = 0;
    response.writeHead(204).end();
    return;
  }
  request.resume();
  request.once("end", () => {
    const at = Date.now();
    requests += 1;
    const id = request.headers["webhook-id"];
    if (typeof id !== "string" || typeof request.headers["webhook-signature"] !== "string") unsigned += 1;
    else if (arrivals.has(id)) duplicates += 1;
    else arrivals.set(id, at);
    response.writeHead(200, { "content-type": "text/plain", "content-length": 2 }).end("ok");
  });
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  console.info(`Ready on http://127.0.0.1:${port}`);
});

process.on("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
});
