import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { createApiClient } from "@/lib/client/api-client";
import { createWebhookEndpointContract, listDeliveriesContract } from "@/lib/contracts/webhooks";
import { startApp, type RunningApp } from "@/test/app-server";
import {
  sendWebhook,
  startReceiver,
  startRelay,
  type Receiver,
  type ReceiverAnswer,
  type RunningRelay,
} from "@/test/relay-harness";

// `signalbox listen` end to end: the real app, a real receiver on 127.0.0.1, and the relay as its own process
// (the package's bin on plain node), so SIGKILL and SIGINT are real. Waits poll with a deadline; nothing sleeps.

let app: RunningApp;
const relays: RunningRelay[] = [];
const receivers: Receiver[] = [];

beforeAll(async () => {
  app = await startApp();
});

afterEach(async () => {
  for (const relay of relays.splice(0)) {
    relay.process.kill("SIGKILL");
    await relay.exited;
  }
  for (const receiver of receivers.splice(0)) await receiver.stop().catch(() => {});
});

afterAll(async () => {
  await app?.stop();
});

const WAIT = { timeout: 30_000, interval: 50 };

async function tenant(endpointCount = 1) {
  const workspace = await createWorkspace({ name: "Relay" });
  const { key } = await createApiKey({ workspaceId: workspace.id, name: "relay", mode: "live" });
  const api = createApiClient({ baseUrl: app.baseUrl, apiKey: key });
  const endpoints = [];
  for (let index = 0; index < endpointCount; index += 1)
    endpoints.push((await api.call(createWebhookEndpointContract, { body: { name: `E${index}` } })).data);
  /** Every delivery of the workspace (of one endpoint), with `acknowledgedAt`, oldest first. */
  const deliveries = async (endpointId?: string) => {
    const all = [];
    let cursor: string | undefined;
    do {
      const page = await api.call(listDeliveriesContract, {
        query: { endpointId, order: "asc", withPayload: "false", limit: 100, cursor },
      });
      all.push(...page.data.deliveries);
      cursor = page.data.nextCursor ?? undefined;
    } while (cursor);
    return all;
  };
  const pendingIds = async (endpointId?: string) =>
    (await deliveries(endpointId)).filter((delivery) => delivery.acknowledgedAt === null).map(({ id }) => id);
  const acknowledgedIds = async (endpointId?: string) =>
    (await deliveries(endpointId)).filter((delivery) => delivery.acknowledgedAt !== null).map(({ id }) => id);
  return { key, endpoints, deliveries, pendingIds, acknowledgedIds };
}

async function receiver(answer?: (request: { body: Buffer }, index: number) => ReceiverAnswer) {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

function relay(key: string, args: string[]) {
  const started = startRelay(["listen", ...args], { SIGNALBOX_API_KEY: key, SIGNALBOX_URL: app.baseUrl });
  relays.push(started);
  return started;
}

async function ready(started: RunningRelay) {
  await expect.poll(() => started.stderr(), WAIT).toMatch(/Ready: forwarding/);
}

/** Posts `{"n":<n>}` to the endpoint; the delivery id. */
function ingestNumber(endpoint: { ingestUrl: string }, n: number) {
  return sendWebhook(endpoint.ingestUrl, JSON.stringify({ n }), { "content-type": "application/json" });
}

/** The `n` of a received JSON body. */
const numberOf = (request: { body: Buffer }) => (JSON.parse(request.body.toString()) as { n: number }).n;

describe("signalbox listen", { timeout: 120_000 }, () => {
  it("forwards what arrived while it was off when it starts, oldest first, with the exact bytes and headers", async () => {
    const { key, endpoints, pendingIds } = await tenant(2);
    const [mine, other] = endpoints as [(typeof endpoints)[0], (typeof endpoints)[0]];
    const binary = Buffer.from(Array.from({ length: 256 }, (_, byte) => byte));
    const gzipped = gzipSync('{"compressed":true}');
    const sent: { body: Buffer; headers: Record<string, string>; dropped: string[] }[] = [
      {
        body: Buffer.from('{ "type": "invoice.paid",  "amount": 1.50 }'),
        headers: {
          "content-type": "application/json",
          "stripe-signature": "t=1,v1=abc",
          "x-custom": "two  inner\tspaces",
        },
        dropped: [],
      },
      { body: binary, headers: { "content-type": "application/octet-stream" }, dropped: [] },
      {
        body: Buffer.from("a=1&b=%C3%A9"),
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "proxy-authorization": "Basic c2VjcmV0",
          "keep-alive": "timeout=5",
          connection: "keep-alive, x-hop",
          "x-hop": "1",
        },
        dropped: ["proxy-authorization", "keep-alive", "x-hop"],
      },
      { body: Buffer.from("no type given"), headers: {}, dropped: [] },
      { body: gzipped, headers: { "content-type": "application/json", "content-encoding": "gzip" }, dropped: [] },
    ];
    const ids: string[] = [];
    for (const [index, { body, headers }] of sent.entries())
      ids.push(await sendWebhook(mine.ingestUrl, body, { ...headers, "x-seq": String(index) }));
    await sendWebhook(other.ingestUrl, '{"other":true}', { "content-type": "application/json" });

    const target = await receiver();
    const started = relay(key, ["--forward-to", target.url, "--endpoint", mine.id]);
    await expect.poll(() => target.log.length, WAIT).toBe(sent.length);
    await expect.poll(() => pendingIds(mine.id), WAIT).toEqual([]);

    expect(target.log.map((request) => request.headers["x-seq"])).toEqual(["0", "1", "2", "3", "4"]);
    for (const [index, request] of target.log.entries()) {
      const { body, headers, dropped } = sent[index]!;
      expect(request.body.equals(body), `body ${index}`).toBe(true);
      // Exactly the sender's headers (less the hop-by-hop ones), plus this request's own framing.
      const names = request.rawHeaders.filter((_, at) => at % 2 === 0).map((name) => name.toLowerCase());
      const expected = [...Object.keys(headers).filter((name) => name !== "connection" && !dropped.includes(name))];
      expect(names.sort(), `headers ${index}`).toEqual(
        [...expected, "x-seq", "host", "connection", "content-length"].sort(),
      );
      for (const name of expected) expect(request.headers[name], name).toBe(headers[name]);
      expect(request.headers.host).toBe(new URL(target.url).host);
      expect(request.headers["content-length"]).toBe(String(body.length));
    }
    // One line per delivery, with its status and id; the other endpoint's delivery stays pending, never sent.
    expect(started.lines().map((line) => /\[(\d{3})\].*ms {2}(\S+)$/.exec(line)?.slice(1))).toEqual(
      ids.map((id) => ["200", id]),
    );
    expect(started.lines()[0]).toContain("invoice.paid");
    expect(await pendingIds(other.id)).toHaveLength(1);
  });

  it("forwards live deliveries of every endpoint as they arrive, in order", async () => {
    const { key, endpoints, pendingIds } = await tenant(2);
    const target = await receiver();
    const started = relay(key, ["--forward-to", target.url]);
    await ready(started);
    for (let n = 1; n <= 12; n += 1) {
      await ingestNumber(endpoints[n % 2]!, n);
      // Some arrive while the relay is idle, some in a burst.
      if (n <= 4) await expect.poll(() => target.log.length, WAIT).toBe(n);
    }
    await expect.poll(() => target.log.length, WAIT).toBe(12);
    expect(target.log.map(numberOf)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
    await expect.poll(() => pendingIds(), WAIT).toEqual([]);
  });

  it("forwards, in order and without waiting for a later sweep, deliveries that arrive while it starts", async () => {
    const { key, endpoints, pendingIds } = await tenant();
    const endpoint = endpoints[0]!;
    for (let n = 1; n <= 5; n += 1) await ingestNumber(endpoint, n);
    const target = await receiver();
    // Deliveries keep arriving while the relay connects, lists the backlog and forwards it: up to ten after it is
    // ready, and no more than 60 in all.
    const started = relay(key, ["--forward-to", target.url, "--endpoint", endpoint.id]);
    let sent = 5;
    for (let readyAt = Infinity; sent < Math.min(readyAt + 10, 60);) {
      await ingestNumber(endpoint, (sent += 1));
      if (readyAt === Infinity && started.stderr().includes("Ready")) readyAt = sent;
    }
    await expect.poll(() => target.log.length, WAIT).toBe(sent);
    expect(target.log.map(numberOf)).toEqual(Array.from({ length: sent }, (_, index) => index + 1));
    await expect.poll(() => pendingIds(endpoint.id), WAIT).toEqual([]);
    // Only the first listing found anything: the rest came through the stream, none was left for a later sweep.
    expect(started.stderr().match(/Caught up/g) ?? []).toHaveLength(1);
  });

  it("killed with SIGKILL mid-stream and restarted: every delivery forwarded, none acknowledged without a 2xx", async () => {
    const { key, endpoints, pendingIds, acknowledgedIds } = await tenant();
    const endpoint = endpoints[0]!;
    const failedOnce = new Set<number>();
    // Answers slowly enough to be caught mid-stream; fails the first attempt of every fourth delivery.
    const target = await receiver((request) => {
      const n = numberOf(request);
      if (n % 4 === 0 && !failedOnce.has(n)) {
        failedOnce.add(n);
        return 503;
      }
      return 200;
    });
    const idOf = new Map<number, string>();
    const acceptedIds = () => new Set(target.accepted().map((request) => idOf.get(numberOf(request))));

    const first = relay(key, ["--forward-to", target.url, "--endpoint", endpoint.id]);
    await ready(first);
    for (let n = 1; n <= 30; n += 1) idOf.set(n, await ingestNumber(endpoint, n));
    await expect.poll(() => target.accepted().length, WAIT).toBeGreaterThanOrEqual(8);
    first.process.kill("SIGKILL");
    expect(await first.exited).toBeNull();
    const acceptedBeforeKill = target.log.length;

    // Whatever the kill interrupted: nothing is acknowledged that the receiver did not answer with a 2xx.
    const acknowledgedAtKill = await acknowledgedIds(endpoint.id);
    expect(acknowledgedAtKill.length).toBeLessThan(30);
    for (const id of acknowledgedAtKill) expect(acceptedIds().has(id), id).toBe(true);

    for (let n = 31; n <= 40; n += 1) idOf.set(n, await ingestNumber(endpoint, n)); // while it is down
    const second = relay(key, ["--forward-to", target.url, "--endpoint", endpoint.id]);
    await expect.poll(() => pendingIds(endpoint.id), WAIT).toEqual([]);

    // At least once: every delivery reached the receiver with a 2xx, each failure was retried.
    expect(acceptedIds()).toEqual(new Set(idOf.values()));
    expect([...failedOnce].sort((a, b) => a - b)).toEqual([4, 8, 12, 16, 20, 24, 28, 32, 36, 40]);
    // Within one run no delivery is forwarded twice after its 2xx; the restarted run resumes in order.
    const secondRun = target.accepted().filter((request) => target.log.indexOf(request) >= acceptedBeforeKill);
    const secondNumbers = secondRun.map(numberOf);
    expect(new Set(secondNumbers).size).toBe(secondNumbers.length);
    expect(secondNumbers).toEqual([...secondNumbers].sort((a, b) => a - b));
    expect(second.lines().filter((line) => line.includes("[200]"))).toHaveLength(secondNumbers.length);
  });

  it("retries a failing receiver (500s, then refused connections) in order, acknowledging only after its 2xx", async () => {
    const { key, endpoints, pendingIds, acknowledgedIds } = await tenant();
    const endpoint = endpoints[0]!;
    const target = await receiver((_request, index) => (index < 3 ? 500 : 200));
    const ids: string[] = [];
    for (let n = 1; n <= 5; n += 1) ids.push(await ingestNumber(endpoint, n));

    // Three 500s for the first delivery; then the receiver goes away while the relay retries.
    const started = relay(key, ["--forward-to", target.url, "--endpoint", endpoint.id]);
    await expect.poll(() => target.log.length, WAIT).toBe(3);
    await target.stop();
    await expect
      .poll(() => started.lines().filter((line) => line.includes("ECONNREFUSED")).length, WAIT)
      .toBeGreaterThanOrEqual(2);
    for (let n = 6; n <= 8; n += 1) ids.push(await ingestNumber(endpoint, n)); // live, during the outage
    expect(await acknowledgedIds(endpoint.id)).toEqual([]);
    expect(target.log.map(numberOf)).toEqual([1, 1, 1]);

    await target.start();
    await expect.poll(() => pendingIds(endpoint.id), WAIT).toEqual([]);
    expect(target.log.map(numberOf)).toEqual([1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(target.accepted().map(numberOf)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Every failure was printed, with the wait before the next attempt.
    const failures = started.lines().filter((line) => line.includes("retrying in"));
    expect(failures.filter((line) => line.includes("[500]") && line.includes(ids[0]!))).toHaveLength(3);
    expect(failures.filter((line) => line.includes(ids[0]!)).length).toBeGreaterThanOrEqual(5);
  });

  it("with --no-ack leaves every delivery pending; SIGINT exits 0", async () => {
    const { key, endpoints, pendingIds } = await tenant();
    const endpoint = endpoints[0]!;
    const ids: string[] = [];
    for (let n = 1; n <= 4; n += 1) ids.push(await ingestNumber(endpoint, n));
    const target = await receiver();
    const started = relay(key, ["--forward-to", target.url, "--endpoint", endpoint.id, "--no-ack"]);
    await expect.poll(() => target.log.length, WAIT).toBe(4);
    await expect.poll(() => started.lines().length, WAIT).toBe(4);
    started.process.kill("SIGINT");
    expect(await started.exited).toBe(0);
    expect(started.stderr()).toContain("Stopped.");
    expect(await pendingIds(endpoint.id)).toEqual(ids);
    expect(target.log.map(numberOf)).toEqual([1, 2, 3, 4]);
  });

  it("stopped by SIGINT while the receiver holds a delivery: exits 0, acknowledging only what got a 2xx", async () => {
    const { key, endpoints, pendingIds, acknowledgedIds } = await tenant();
    const endpoint = endpoints[0]!;
    const ids: string[] = [];
    for (let n = 1; n <= 5; n += 1) ids.push(await ingestNumber(endpoint, n));
    const target = await receiver((request) => (numberOf(request) === 3 ? "hang" : 200));
    const started = relay(key, ["--forward-to", target.url, "--endpoint", endpoint.id]);
    await expect.poll(() => target.log.length, WAIT).toBe(3);
    await expect.poll(() => acknowledgedIds(endpoint.id), WAIT).toEqual(ids.slice(0, 2));
    started.process.kill("SIGINT");
    expect(await started.exited).toBe(0);
    expect(await pendingIds(endpoint.id)).toEqual(ids.slice(2));
    expect(target.log.map(numberOf)).toEqual([1, 2, 3]);
  });

  it("explains what stops it from starting, with a non-zero exit code", async () => {
    const { key } = await tenant();
    const target = await receiver();
    const run = async (args: string[], env: Record<string, string>) => {
      const started = startRelay(args, env);
      relays.push(started);
      return { code: await started.exited, stderr: started.stderr() };
    };
    const listen = ["listen", "--forward-to", target.url];

    const noKey = await run(listen, { SIGNALBOX_URL: app.baseUrl });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("SIGNALBOX_API_KEY is not set");

    const badKey = await run(listen, { SIGNALBOX_API_KEY: "sk_live_not_a_key", SIGNALBOX_URL: app.baseUrl });
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toContain("The service refused the API key (401)");

    const closed = await startReceiver();
    const closedUrl = closed.url.replace("/webhooks", "");
    await closed.stop();
    const unreachable = await run(listen, { SIGNALBOX_API_KEY: key, SIGNALBOX_URL: closedUrl });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain(`Cannot reach Signalbox at ${closedUrl}`);

    const badTarget = await run(["listen", "--forward-to", "ftp://example.com/"], { SIGNALBOX_API_KEY: key });
    expect(badTarget.code).toBe(2);
    expect(badTarget.stderr).toContain("--forward-to must be an http:// or https:// URL");

    const unknownEndpoint = await run([...listen, "--endpoint", "we_doesnotexist"], {
      SIGNALBOX_API_KEY: key,
      SIGNALBOX_URL: app.baseUrl,
    });
    expect(unknownEndpoint.code).toBe(1);
    expect(unknownEndpoint.stderr).toContain("No webhook endpoint we_doesnotexist");

    const help = await run(["--help"], {});
    expect(help.code).toBe(0);
    expect(target.log).toEqual([]);
  });
});
