import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { creditWorkspace, setSubscriptionAllowance } from "@/lib/billing/balances";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { balances, usageRows } from "@/test/enrichment-harness";
import { type FakeBuiltWith, startFakeBuiltWith } from "@/test/fakes/builtwith-server";
import { api, createEndpoint, report } from "./harness";

/*
 * Two app instances on one database, as behind a load balancer (DESIGN §1: nothing may depend on in-process state).
 * Acks, sender-id dedup, cursor walks and debits are raced across both; the single-instance versions of these races
 * are in lib/inbox/deliveries.integration.test.ts, lib/inbox/ingest.integration.test.ts and
 * lib/enrichment/enrichment.integration.test.ts.
 */

// Intelligence/technographics with the first-party collectors off asks one paid vendor (a local BuiltWith fake, 5
// cents a lookup to us): a fixed 5-cent call, so the race is about the balance and what upstream it lets through. A
// call with no source to attempt would be free (and so no race at all).
const appEnv = () => ({
  ENRICHMENT_PROVIDERS_DISABLED: "website,fingerprints,company-store,public-filings",
  OUTBOUND_ALLOW_LOOPBACK: "true",
  BUILTWITH_API_KEY: builtWith.apiKey,
  BUILTWITH_API_URL: builtWith.baseUrl,
});
const DELIVERIES = "/v1/webhook-endpoints/deliveries";
type ListPage = { data: { deliveries: { id: string }[]; nextCursor: string | null } };

let builtWith: FakeBuiltWith;
let a: RunningApp;
let b: RunningApp;
const apps = () => [a, b];

beforeAll(async () => {
  builtWith = await startFakeBuiltWith();
  [a, b] = await Promise.all([startApp(appEnv()), startApp(appEnv())]);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop(), builtWith?.close()]);
});

async function newTenant(name: string, money: { subscription?: number; purchased?: number } = {}) {
  const workspace = await createWorkspace({ name });
  if (money.subscription)
    await setSubscriptionAllowance({ workspaceId: workspace.id, allowanceCents: money.subscription, note: "plan" });
  if (money.purchased) await creditWorkspace({ workspaceId: workspace.id, cents: money.purchased, note: "top-up" });
  const { key } = await createApiKey({ workspaceId: workspace.id, name: "live", mode: "live" });
  return { workspaceId: workspace.id, key };
}

async function ingest(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; deliveryId?: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  const json = (await response.json()) as { deliveryId?: string };
  return { status: response.status, deliveryId: json.deliveryId };
}

/** The same ingest address on the other instance. */
const onInstance = (url: string, instance: RunningApp) => `${instance.baseUrl}${new URL(url).pathname}`;

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

function countOf(items: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

describe("two instances on one database", () => {
  it("acknowledge each delivery exactly once under concurrent single and bulk acks through both", async () => {
    const tenant = await newTenant("Multi ack");
    const url = await createEndpoint(a.baseUrl, tenant.key, "acks");
    // Every change of acknowledged_at, whichever instance makes it.
    await db().$executeRawUnsafe(
      `CREATE TABLE fault_ack_audit (id uuid NOT NULL, old_at timestamptz, new_at timestamptz)`,
    );
    await db().$executeRawUnsafe(`
      CREATE FUNCTION fault_ack_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO fault_ack_audit VALUES (NEW.id, OLD.acknowledged_at, NEW.acknowledged_at);
        RETURN NEW;
      END $$`);
    await db().$executeRawUnsafe(`
      CREATE TRIGGER fault_ack_audit AFTER UPDATE ON webhook_deliveries FOR EACH ROW
      WHEN (OLD.acknowledged_at IS DISTINCT FROM NEW.acknowledged_at) EXECUTE FUNCTION fault_ack_audit()`);

    const ROUNDS = 3;
    const PER_ROUND = 40;
    let requests = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      // Deliveries arrive through both instances.
      const ids: string[] = [];
      for (let index = 0; index < PER_ROUND; index += 1) {
        const answer = await ingest(onInstance(url, apps()[index % 2]!), JSON.stringify({ round, index }));
        expect(answer.status).toBe(200);
        ids.push(answer.deliveryId!);
      }

      // Bulk acks of the whole set and of subsets, and two single acks per id, interleaved across the instances.
      const bodies = Array.from({ length: 12 }, (_, index) =>
        index % 2 === 0 ? shuffled(ids) : shuffled(ids).slice(0, 10 + index),
      );
      const singles = shuffled([...ids, ...ids]);
      type Outcome = { kind: "bulk" | "single"; ids: string[]; status: number; json: unknown };
      const calls: Promise<Outcome>[] = [];
      singles.forEach((id, index) => {
        const instance = apps()[index % 2]!;
        const body = bodies[index];
        if (body)
          calls.push(
            api(instance.baseUrl, tenant.key, "POST", `${DELIVERIES}/ack`, { ids: body }).then((answer) => ({
              kind: "bulk" as const,
              ids: body,
              ...answer,
            })),
          );
        calls.push(
          api(apps()[(index + 1) % 2]!.baseUrl, tenant.key, "POST", `${DELIVERIES}/${id}/ack`).then((answer) => ({
            kind: "single" as const,
            ids: [id],
            ...answer,
          })),
        );
      });
      const outcomes = await Promise.all(calls);
      requests += outcomes.length;

      const stamps = new Map(
        (
          await db().$queryRaw<
            { id: string; at: Date | null }[]
          >`SELECT id::text AS id, acknowledged_at AS at FROM webhook_deliveries WHERE id = ANY(${ids}::uuid[])`
        ).map((row) => [row.id, row.at?.toISOString() ?? null]),
      );
      const bulkAcknowledged: string[] = [];
      for (const outcome of outcomes) {
        expect(outcome.status, `${outcome.kind}: ${JSON.stringify(outcome.json)}`).toBe(200);
        if (outcome.kind === "bulk") {
          const data = (
            outcome.json as { data: { acknowledged: string[]; alreadyAcknowledged: string[]; notFound: string[] } }
          ).data;
          expect(data.notFound).toEqual([]);
          expect([...data.acknowledged, ...data.alreadyAcknowledged].sort()).toEqual([...outcome.ids].sort());
          bulkAcknowledged.push(...data.acknowledged);
        } else {
          // Whoever won, each answer shows the one timestamp that stuck.
          const delivery = (outcome.json as { data: { id: string; acknowledgedAt: string } }).data;
          expect(delivery.acknowledgedAt).toBe(stamps.get(delivery.id));
        }
      }
      for (const [id, count] of countOf(bulkAcknowledged)) expect(count, id).toBe(1);
      // Exactly one transition per delivery, from pending to the stored timestamp.
      const audit = await db().$queryRaw<{ id: string; old_at: Date | null; new_at: Date | null }[]>`
        SELECT id::text AS id, old_at, new_at FROM fault_ack_audit WHERE id = ANY(${ids}::uuid[])`;
      const transitions = countOf(audit.map((row) => row.id));
      for (const id of ids) expect(transitions.get(id), id).toBe(1);
      for (const row of audit) {
        expect(row.old_at).toBeNull();
        expect(row.new_at?.toISOString()).toBe(stamps.get(row.id));
      }
    }
    await db().$executeRawUnsafe(`DROP TRIGGER fault_ack_audit ON webhook_deliveries`);
    report("two instances: acks", {
      rounds: ROUNDS,
      deliveriesPerRound: PER_ROUND,
      ackRequests: requests,
      transitionsPerDelivery: 1,
    });
  });

  it("store one delivery per sender message id when its retries hit both instances at once", async () => {
    const tenant = await newTenant("Multi dedup");
    const url = await createEndpoint(a.baseUrl, tenant.key, "dedup");
    const MESSAGES = 20;
    const COPIES = 6;
    const runId = `dedup${Date.now()}`;
    const sends = Array.from({ length: MESSAGES * COPIES }, (_, index) => {
      const message = index % MESSAGES;
      const body = JSON.stringify({ message, runId });
      return ingest(onInstance(url, apps()[Math.floor(index / MESSAGES) % 2]!), body, {
        "webhook-id": `msg_${runId}_${message}`,
        "x-fault-run": runId,
      }).then((answer) => ({ message, ...answer }));
    });
    const answers = await Promise.all(shuffled(sends));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const idsByMessage = new Map<number, Set<string>>();
    for (const answer of answers)
      idsByMessage.set(answer.message, (idsByMessage.get(answer.message) ?? new Set()).add(answer.deliveryId!));
    for (const [message, ids] of idsByMessage) expect(ids.size, `message ${message}`).toBe(1);
    const rows = await db().$queryRaw<{ id: string; dedup_key: string }[]>`
      SELECT id::text AS id, dedup_key FROM webhook_deliveries WHERE headers->>'x-fault-run' = ${runId}`;
    expect(rows).toHaveLength(MESSAGES);
    expect(new Set(rows.map((row) => row.id))).toEqual(new Set([...idsByMessage.values()].map((ids) => [...ids][0]!)));
    report("two instances: dedup", {
      messages: MESSAGES,
      copiesEach: COPIES,
      requests: answers.length,
      rowsStored: rows.length,
    });
  });

  it("walk a cursor across both instances while both ingest: every earlier delivery exactly once", async () => {
    const tenant = await newTenant("Multi cursor");
    const url = await createEndpoint(a.baseUrl, tenant.key, "cursor");
    const endpointId = new URL(url).pathname.split("/").pop()!;
    // 240 earlier deliveries, three to a timestamp (the cursor must break ties by id).
    const start = new Date(Date.now() - 600_000);
    await db().$executeRaw`
      INSERT INTO webhook_deliveries (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip, size_bytes, created_at)
      SELECT gen_random_uuid(), ${tenant.workspaceId}, ${endpointId}, convert_to(jsonb_build_object('n', n)::text, 'UTF8'),
             'application/json', '{"content-type":"application/json"}'::jsonb, '203.0.113.7', octet_length(jsonb_build_object('n', n)::text),
             ${start}::timestamptz + (n / 3) * interval '5 milliseconds'
      FROM generate_series(0, 239) AS n`;
    const before = (
      await db().$queryRaw<
        { id: string }[]
      >`SELECT id::text AS id FROM webhook_deliveries WHERE workspace_id = ${tenant.workspaceId}`
    ).map((row) => row.id);

    for (const order of ["desc", "asc"] as const) {
      let walking = true;
      const arrived: string[] = [];
      const sender = async (instance: RunningApp) => {
        for (let sent = 0; walking && sent < 60; sent += 1) {
          const answer = await ingest(onInstance(url, instance), JSON.stringify({ sent }));
          expect(answer.status).toBe(200);
          arrived.push(answer.deliveryId!);
        }
      };
      const senders = [sender(a), sender(b)];
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      try {
        do {
          // Each page from the other instance than the last: the cursor is the database's, not a process's.
          const instance = apps()[pages % 2]!;
          const query: string = `?limit=20&order=${order}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
          const page: { status: number; json: ListPage } = await api<ListPage>(
            instance.baseUrl,
            tenant.key,
            "GET",
            `${DELIVERIES}${query}`,
          );
          expect(page.status, JSON.stringify(page.json)).toBe(200);
          seen.push(...page.json.data.deliveries.map((delivery) => delivery.id));
          cursor = page.json.data.nextCursor;
          pages += 1;
        } while (cursor && pages < 100);
      } finally {
        walking = false;
        await Promise.all(senders);
      }
      expect(cursor).toBeNull();
      const counts = countOf(seen);
      for (const [id, count] of counts) expect(count, `seen twice: ${id}`).toBe(1);
      for (const id of before) expect(counts.get(id), `skipped: ${id}`).toBe(1);
      expect(arrived.length).toBeGreaterThan(0);
      report(`two instances: cursor walk (${order})`, {
        earlier: before.length,
        pages,
        seen: seen.length,
        arrivedDuringWalk: arrived.length,
      });
      before.push(...arrived);
    }
  });

  it("let exactly as many concurrent priced calls through both as the balance covers", async () => {
    // 63 cents cover 12 calls of 5 cents, with 3 left.
    const tenant = await newTenant("Multi debit", { subscription: 30, purchased: 33 });
    const CALLS = 40;
    const vendorCallsBefore = builtWith.requests.length;
    const answers = await Promise.all(
      Array.from({ length: CALLS }, async (_, index) => {
        const response = await fetch(`${apps()[index % 2]!.baseUrl}/v1/data/svc/companies/intelligence`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${tenant.key}`,
            "content-type": "application/json",
            "cache-control": "no-cache",
          },
          body: JSON.stringify({ domain: "acme-robotics.example", signal: "technographics" }),
          signal: AbortSignal.timeout(60_000),
        });
        return {
          status: response.status,
          json: (await response.json()) as {
            meta?: { costCents: number; subscriptionRemainingCents: number; purchasedBalanceCents: number };
          },
        };
      }),
    );
    const succeeded = answers.filter((answer) => answer.status === 200);
    expect(succeeded).toHaveLength(12);
    expect(answers.filter((answer) => answer.status === 402)).toHaveLength(CALLS - 12);
    // Each call held its price before asking upstream: the vendor was asked only for the calls that were paid for.
    expect(builtWith.requests.length - vendorCallsBefore).toBe(12);
    // Every success saw its own balance after its debit: 58, 53, …, 3, none negative, none twice.
    const remaining = succeeded.map((answer) => {
      expect(answer.json.meta?.costCents).toBe(5);
      return answer.json.meta!.subscriptionRemainingCents + answer.json.meta!.purchasedBalanceCents;
    });
    expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, index) => 3 + 5 * index));
    expect(await balances(tenant.workspaceId)).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 3 });
    // The ledger adds up to the change of balance.
    const rows = await usageRows(tenant.workspaceId);
    expect(rows).toHaveLength(12);
    expect(rows.reduce((sum, row) => sum + row.costCents, 0)).toBe(60);
    expect(rows.reduce((sum, row) => sum + row.subscriptionDeltaCents + row.purchasedDeltaCents, 0)).toBe(-60);
    report("two instances: debits", {
      calls: CALLS,
      balanceCents: 63,
      priceCents: 5,
      succeeded: succeeded.length,
      refused402: CALLS - succeeded.length,
      ledgerCents: 60,
    });
  });
});
