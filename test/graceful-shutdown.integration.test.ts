import http from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "./app-server";
import { createTenant, openEventStream, sleep, type Tenant } from "./hostile/event-stream-load";

// SIGTERM in a rolling restart: requests in flight are answered, event streams end at once, new connections are
// refused, and the process exits cleanly (server.ts, lib/api/graceful-close.ts).

let app: RunningApp;
let tenant: Tenant;

beforeAll(async () => {
  app = await startApp();
  tenant = await createTenant(app.baseUrl, "graceful-close");
});

afterAll(async () => {
  await app?.stop("SIGKILL");
});

/** An ingest POST whose headers are sent and parsed (the server answered 100 Continue), its body not yet. */
function startIngest(url: string, body: Buffer) {
  return new Promise<{ finish: () => Promise<{ status: number; text: string }> }>((resolve, reject) => {
    const request = http.request(url, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": body.length, expect: "100-continue" },
    });
    const answer = new Promise<{ status: number; text: string }>((settle, fail) => {
      request.on("response", (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => settle({ status: response.statusCode ?? 0, text }));
        response.on("error", fail);
      });
      request.on("error", fail);
    });
    answer.catch(() => {}); // awaited through `finish`
    request.on("error", reject);
    request.on("continue", () => {
      request.write(body.subarray(0, 10));
      resolve({
        finish: () => {
          request.end(body.subarray(10));
          return answer;
        },
      });
    });
    request.flushHeaders();
  });
}

describe("SIGTERM", () => {
  it("answers the ingest in flight, ends event streams at once, refuses new connections, and exits 0", async () => {
    const stream = await openEventStream(app.baseUrl, tenant.keys[0]!);
    expect(stream.status).toBe(200);
    const body = Buffer.from(JSON.stringify({ type: "order.created", pad: "x".repeat(50_000) }));
    const ingest = await startIngest(tenant.ingestUrl, body);

    const exited = app.stop("SIGTERM");
    // The stream ends before the in-flight request is let go: were it held until the grace period ran out, the
    // ingest's connection would be closed with it.
    await stream.ended;
    while (!app.output().includes("SIGTERM received")) await sleep(20);
    await expect(fetch(`${app.baseUrl}/healthz`)).rejects.toThrow();

    const answer = await ingest.finish();
    expect(answer.status).toBe(200);
    const { deliveryId } = JSON.parse(answer.text) as { deliveryId: string };
    expect(await exited).toBe(0);

    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      const stored = await client.query<{ bytes: number }>(
        "SELECT octet_length(raw_body) AS bytes FROM webhook_deliveries WHERE workspace_id = $1 AND id = $2",
        [tenant.workspaceId, deliveryId],
      );
      expect(stored.rows).toEqual([{ bytes: body.length }]);
    } finally {
      await client.end();
    }
  });
});
