import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { ACK_BY_FILTER_LIMIT } from "@/lib/contracts/webhooks";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { dataOf, detailPaths, expectError, requestApi } from "@/test/http-api";
import { acknowledgeFilteredDeliveries } from "./acknowledge-filtered-deliveries";

// Acknowledging by filter (`POST …/deliveries/ack` with `filter`), over HTTP against the real launcher: each filter
// field, the bound and `hasMore`, tenant isolation, validation, and races with single and by-id acknowledgements
// (every delivery acknowledged once, by one statement, its first timestamp kept, the answers' counts adding up).

const ACK = "/v1/webhook-endpoints/deliveries/ack";
const BASE = Date.parse("2026-03-01T12:00:00.000Z");
const at = (ms: number) => new Date(BASE + ms).toISOString();

let app: RunningApp;

beforeAll(async () => {
  // The races send hundreds of requests with one key.
  app = await startApp({ RATE_LIMIT_API_PER_MINUTE: "0" });
});

afterAll(async () => {
  await app?.stop();
});

interface Tenant {
  workspaceId: string;
  key: string;
  endpointA: string;
  endpointB: string;
}

let tenants = 0;

async function newTenant(scopes?: Parameters<typeof createApiKey>[0]["scopes"]): Promise<Tenant> {
  const workspace = await createWorkspace({ name: `Ack by filter ${++tenants}` });
  const { key } = await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live", scopes });
  const endpoint = async (name: string) =>
    (
      await db().webhookEndpoint.create({
        data: { id: `we_ackfilter${tenants}${name}${randomUUID().slice(0, 8)}`, workspaceId: workspace.id, name },
      })
    ).id;
  return { workspaceId: workspace.id, key, endpointA: await endpoint("A"), endpointB: await endpoint("B") };
}

/**
 * Inserts `count` deliveries: row n (from 0) is received at BASE + n seconds (`offsetMs` later for a second batch), on
 * endpoint B when n is odd (else A), and acknowledged at BASE − 1 h when n is a multiple of `acknowledgedEvery`.
 */
async function seed(tenant: Tenant, count: number, options: { acknowledgedEvery?: number; offsetMs?: number } = {}) {
  const every = options.acknowledgedEvery ?? 0;
  await db().$executeRaw`
    INSERT INTO webhook_deliveries
      (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip, size_bytes, created_at,
       acknowledged_at)
    SELECT gen_random_uuid(), ${tenant.workspaceId}, CASE WHEN n % 2 = 1 THEN ${tenant.endpointB} ELSE ${tenant.endpointA} END,
           convert_to('{"n":' || n || '}', 'UTF8'), 'application/json', '{"content-type":"application/json"}'::jsonb,
           '203.0.113.7', length('{"n":' || n || '}'),
           ${new Date(BASE + (options.offsetMs ?? 0))}::timestamptz + n * interval '1 second',
           CASE WHEN ${every}::int > 0 AND n % ${every}::int = 0 THEN ${new Date(BASE - 3_600_000)}::timestamptz END
    FROM generate_series(0, ${count - 1}::int) AS n`;
}

interface Row {
  id: string;
  endpointId: string;
  createdAt: string;
  acknowledgedAt: string | null;
}

async function rows(workspaceId: string): Promise<Row[]> {
  const found = await db().$queryRaw<
    { id: string; webhook_endpoint_id: string; created_at: Date; acknowledged_at: Date | null }[]
  >`SELECT id::text, webhook_endpoint_id, created_at, acknowledged_at FROM webhook_deliveries
    WHERE workspace_id = ${workspaceId} ORDER BY created_at, id`;
  return found.map((row) => ({
    id: row.id,
    endpointId: row.webhook_endpoint_id,
    createdAt: row.created_at.toISOString(),
    acknowledgedAt: row.acknowledged_at?.toISOString() ?? null,
  }));
}

async function ackByFilter(key: string, filter: unknown) {
  return dataOf<{ acknowledgedCount: number; hasMore: boolean; nextCursor: string | null }>(
    await requestApi(app.baseUrl, key, "POST", ACK, { filter }),
  );
}

describe("acknowledging by filter", () => {
  it.each<[string, (tenant: Tenant) => Record<string, string>, (row: Row, index: number) => boolean]>([
    ["an empty filter (every pending delivery)", () => ({}), () => true],
    ["endpointId", (tenant) => ({ endpointId: tenant.endpointB }), (_row, n) => n % 2 === 1],
    ["since (inclusive)", () => ({ since: at(12_000) }), (_row, n) => n >= 12],
    ["until (exclusive)", () => ({ until: at(12_000) }), (_row, n) => n < 12],
    [
      "since and until with an offset",
      () => ({ since: "2026-03-01T13:00:05+01:00", until: at(9_000) }),
      (_row, n) => n >= 5 && n < 9,
    ],
    ["unacknowledged=true", () => ({ unacknowledged: "true" }), () => true],
    ["unacknowledged=false (nothing pending matches)", () => ({ unacknowledged: "false" }), () => false],
    [
      "every field at once",
      (tenant) => ({ endpointId: tenant.endpointA, since: at(4_000), until: at(16_000), unacknowledged: "true" }),
      (_row, n) => n % 2 === 0 && n >= 4 && n < 16,
    ],
  ])("acknowledges exactly the pending deliveries %s selects", async (_case, makeFilter, selects) => {
    const tenant = await newTenant();
    const other = await newTenant();
    await seed(tenant, 20, { acknowledgedEvery: 3 });
    await seed(other, 20);
    const before = await rows(tenant.workspaceId);
    const expected = before.filter((row, n) => selects(row, n) && row.acknowledgedAt === null).map((row) => row.id);

    const answer = await ackByFilter(tenant.key, makeFilter(tenant));

    expect(answer).toEqual({ acknowledgedCount: expected.length, hasMore: false, nextCursor: null });
    const after = await rows(tenant.workspaceId);
    const newlyAcknowledged = after.filter((row, n) => row.acknowledgedAt !== before[n]!.acknowledgedAt);
    expect(newlyAcknowledged.map((row) => row.id)).toEqual(expected);
    // One statement, one timestamp; earlier acknowledgements keep theirs.
    expect(new Set(newlyAcknowledged.map((row) => row.acknowledgedAt)).size).toBeLessThanOrEqual(1);
    for (const [n, row] of before.entries())
      if (row.acknowledgedAt !== null) expect(after[n]!.acknowledgedAt).toBe(row.acknowledgedAt);
    expect((await rows(other.workspaceId)).every((row) => row.acknowledgedAt === null)).toBe(true);
  });

  it("never reaches another workspace, even with its endpoint id", async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    await seed(other, 10);
    expect(await ackByFilter(tenant.key, { endpointId: other.endpointA })).toEqual({
      acknowledgedCount: 0,
      hasMore: false,
      nextCursor: null,
    });
    expect(await ackByFilter(tenant.key, {})).toEqual({ acknowledgedCount: 0, hasMore: false, nextCursor: null });
    expect((await rows(other.workspaceId)).every((row) => row.acknowledgedAt === null)).toBe(true);
  });

  it(`acknowledges the oldest ${ACK_BY_FILTER_LIMIT.toLocaleString("en")} per call and says when more are pending`, async () => {
    const tenant = await newTenant();
    await seed(tenant, ACK_BY_FILTER_LIMIT + 1);
    expect(await ackByFilter(tenant.key, {})).toEqual({
      acknowledgedCount: ACK_BY_FILTER_LIMIT,
      hasMore: true,
      nextCursor: expect.any(String),
    });
    const pending = (await rows(tenant.workspaceId)).filter((row) => row.acknowledgedAt === null);
    // The newest is the one left.
    expect(pending.map((row) => row.createdAt)).toEqual([at(ACK_BY_FILTER_LIMIT * 1000)]);
    expect(await ackByFilter(tenant.key, {})).toEqual({ acknowledgedCount: 1, hasMore: false, nextCursor: null });
    expect(await ackByFilter(tenant.key, {})).toEqual({ acknowledgedCount: 0, hasMore: false, nextCursor: null });
  }, 30_000);

  it("says hasMore only when more than the bound match (the bound itself is no more)", async () => {
    const tenant = await newTenant();
    await seed(tenant, 4, { acknowledgedEvery: 4 }); // row 0 acknowledged: three pending
    const filter = { endpointId: undefined };
    expect(await acknowledgeFilteredDeliveries({ workspaceId: tenant.workspaceId, filter, limit: 3 })).toEqual({
      acknowledgedCount: 3,
      hasMore: false,
      nextCursor: null,
    });
    await seed(tenant, 5, { offsetMs: 60_000 });
    expect(await acknowledgeFilteredDeliveries({ workspaceId: tenant.workspaceId, filter, limit: 3 })).toEqual({
      acknowledgedCount: 3,
      hasMore: true,
      nextCursor: expect.any(String),
    });
    const left = (await rows(tenant.workspaceId)).filter((row) => row.acknowledgedAt === null);
    expect(left.map((row) => row.createdAt)).toEqual([at(63_000), at(64_000)]);
  });

  it("needs the inbox:ack scope, like acknowledging by id", async () => {
    const tenant = await newTenant(["inbox:read"]);
    await seed(tenant, 3);
    expectError(await requestApi(app.baseUrl, tenant.key, "POST", ACK, { filter: {} }), 403, "forbidden");
    expect((await rows(tenant.workspaceId)).every((row) => row.acknowledgedAt === null)).toBe(true);
  });

  describe("validation", () => {
    let tenant: Tenant;

    beforeAll(async () => {
      tenant = await newTenant();
      await seed(tenant, 5);
    });

    it.each<[string, unknown, string[]]>([
      ["neither ids nor filter", {}, ["ids"]],
      ["both ids and filter", { ids: [randomUUID()], filter: {} }, [""]],
      [
        "a filter with an unknown field (a typo must not widen it to everything)",
        { filter: { endpointID: "we_x" } },
        ["filter.endpointID"],
      ],
      ["a filter that is null", { filter: null }, ["filter"]],
      ["a filter that is an array", { filter: [] }, ["filter"]],
      [
        "unacknowledged as a JSON boolean (the listing's spelling is text)",
        { filter: { unacknowledged: true } },
        ["filter.unacknowledged"],
      ],
      ["since without a zone", { filter: { since: "2026-03-01T12:00:00" } }, ["filter.since"]],
      ["since after until", { filter: { since: at(2_000), until: at(1_000) } }, ["filter.since"]],
      ["an empty endpointId", { filter: { endpointId: "" } }, ["filter.endpointId"]],
      ["a cursor without a filter", { ids: [randomUUID()], cursor: "abc" }, ["cursor"]],
      ["a cursor that is not one", { filter: {}, cursor: "not-a-cursor" }, ["cursor"]],
    ])("refuses %s with 400 and acknowledges nothing", async (_case, body, paths) => {
      const answer = await requestApi(app.baseUrl, tenant.key, "POST", ACK, body);
      expectError(answer, 400, "validation_error");
      expect(detailPaths(answer.json)).toEqual(paths);
      expect((await rows(tenant.workspaceId)).every((row) => row.acknowledgedAt === null)).toBe(true);
    });
  });
});

describe("acknowledging by a filter on content", () => {
  /** Calls until done, as a client does; the answers in order. */
  async function ackAll(options: Parameters<typeof acknowledgeFilteredDeliveries>[0]) {
    const answers = [];
    let cursor: string | undefined;
    do {
      const answer = await acknowledgeFilteredDeliveries({ ...options, cursor });
      answers.push(answer);
      expect(answer.hasMore).toBe(answer.nextCursor !== null);
      cursor = answer.nextCursor ?? undefined;
    } while (cursor && answers.length < 100);
    return answers;
  }

  it.each<[string, Record<string, string>, (n: number) => boolean]>([
    // Bodies are {"n":N}: `"n":1` is in n = 1 and 10–19.
    ["q", { q: '"N":1' }, (n) => n === 1 || (n >= 10 && n <= 19)],
    ["payload", { payload: '{"n":7}' }, (n) => n === 7],
    ["q with since", { q: '"n":2', since: at(21_000) }, (n) => n >= 21 && n <= 29],
  ])(
    "%s: window after window, every pending match once and nothing else, however small the window and the bound",
    async (_case, filter, selects) => {
      const tenant = await newTenant();
      await seed(tenant, 30, { acknowledgedEvery: 4 });
      const before = await rows(tenant.workspaceId);
      const expected = before.filter((row, n) => selects(n) && row.acknowledgedAt === null).map((row) => row.id);

      const answers = await ackAll({ workspaceId: tenant.workspaceId, filter, limit: 2, scanRows: 4 });

      expect(answers.reduce((sum, answer) => sum + answer.acknowledgedCount, 0)).toBe(expected.length);
      // At most 2 per call; windows of 4 rows make calls that acknowledge nothing and still go on.
      expect(answers.length).toBeGreaterThanOrEqual(Math.ceil(expected.length / 2));
      expect(answers.at(-1)!.nextCursor).toBeNull();
      const after = await rows(tenant.workspaceId);
      const newly = after.filter((row, n) => row.acknowledgedAt !== before[n]!.acknowledgedAt).map((row) => row.id);
      expect(newly.sort()).toEqual([...expected].sort());
    },
  );

  it("stops a window at its byte bound, the first delivery always looked at", async () => {
    const tenant = await newTenant();
    await seed(tenant, 6);
    // Each body is 7 bytes: a 10-byte window holds one delivery.
    const answers = await ackAll({ workspaceId: tenant.workspaceId, filter: { q: '"n":' }, limit: 10, scanBytes: 10 });
    expect(answers.map((answer) => answer.acknowledgedCount)).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it("takes a cursor only for the filter it came from, over HTTP", async () => {
    const tenant = await newTenant();
    await seed(tenant, 3);
    const first = await acknowledgeFilteredDeliveries({
      workspaceId: tenant.workspaceId,
      filter: { q: '"n":' },
      limit: 1,
    });
    expect(first).toEqual({ acknowledgedCount: 1, hasMore: true, nextCursor: expect.any(String) });
    const other = await requestApi(app.baseUrl, tenant.key, "POST", ACK, {
      filter: { q: '"n":1' },
      cursor: first.nextCursor,
    });
    expectError(other, 400, "validation_error");
    const same = await requestApi(app.baseUrl, tenant.key, "POST", ACK, {
      filter: { q: '"n":' },
      cursor: first.nextCursor,
    });
    expect(dataOf(same)).toEqual({ acknowledgedCount: 2, hasMore: false, nextCursor: null });
  });
});

describe("acknowledging by filter while others acknowledge the same deliveries", () => {
  const ROUNDS = 5;
  const DELIVERIES = 300;

  const shuffled = <T>(items: T[]) =>
    items
      .map((item) => ({ item, order: Math.random() }))
      .sort((a, b) => a.order - b.order)
      .map(({ item }) => item);

  /** Which statement made a transition, from the text of the query that ran it (lib/inbox/acknowledge-*.ts). */
  function statementKind(query: string): "filter" | "ids" | "single" {
    if (query.includes("chosen AS")) return "filter";
    if (query.includes("requested AS")) return "ids";
    return "single";
  }

  it("acknowledges each delivery exactly once, keeps the first timestamp, and the answers' counts add up", async () => {
    const tenant = await newTenant();
    // Every change of acknowledged_at, whoever makes it, with the statement that made it (this file's own database).
    await db().$executeRawUnsafe(
      `CREATE TABLE test_filter_ack_audit (id uuid NOT NULL, old_at timestamptz, new_at timestamptz, query text)`,
    );
    await db().$executeRawUnsafe(`
      CREATE FUNCTION test_filter_ack_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO test_filter_ack_audit VALUES (NEW.id, OLD.acknowledged_at, NEW.acknowledged_at, current_query());
        RETURN NEW;
      END $$`);
    await db().$executeRawUnsafe(`
      CREATE TRIGGER test_filter_ack_audit AFTER UPDATE ON webhook_deliveries FOR EACH ROW
      WHEN (OLD.acknowledged_at IS DISTINCT FROM NEW.acknowledged_at) EXECUTE FUNCTION test_filter_ack_audit()`);
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        await db().$executeRawUnsafe(`TRUNCATE test_filter_ack_audit`);
        await seed(tenant, DELIVERIES, { offsetMs: round * 3_600_000 });
        const ids = (await rows(tenant.workspaceId)).filter((row) => row.acknowledgedAt === null).map((row) => row.id);
        expect(ids).toHaveLength(DELIVERIES);
        const mid = at(round * 3_600_000 + (DELIVERIES / 2) * 1000);

        // Interleaved: filter acks (overlapping filters), by-id acks of shuffled subsets, single acks of every id.
        const filters = [{}, { endpointId: tenant.endpointA }, { since: mid }, { until: mid }];
        const idBodies = Array.from({ length: 8 }, () => shuffled(ids).slice(0, 100));
        const singles = shuffled(ids).slice(0, 120);
        const filterCalls: Promise<{ acknowledgedCount: number; hasMore: boolean; nextCursor: string | null }>[] = [];
        const idCalls: Promise<{ acknowledged: string[] }>[] = [];
        const singleCalls: Promise<unknown>[] = [];
        for (let index = 0; index < singles.length; index += 1) {
          if (index % 30 === 0) filterCalls.push(ackByFilter(tenant.key, filters[(index / 30) % filters.length]));
          if (index % 15 === 0 && idBodies[index / 15])
            idCalls.push(
              requestApi(app.baseUrl, tenant.key, "POST", ACK, { ids: idBodies[index / 15] }).then((answer) =>
                dataOf<{ acknowledged: string[] }>(answer),
              ),
            );
          singleCalls.push(
            requestApi(app.baseUrl, tenant.key, "POST", `/v1/webhook-endpoints/deliveries/${singles[index]}/ack`).then(
              (answer) => dataOf(answer),
            ),
          );
        }
        const [filterAnswers, idAnswers] = await Promise.all([
          Promise.all(filterCalls),
          Promise.all(idCalls),
          Promise.all(singleCalls),
        ]);

        // The empty filter covers everything: each delivery ended up acknowledged by exactly one statement.
        const audit = await db().$queryRaw<{ id: string; old_at: Date | null; new_at: Date; query: string }[]>`
          SELECT id::text AS id, old_at, new_at, query FROM test_filter_ack_audit`;
        expect(audit.map((row) => row.id).sort(), `round ${round}`).toEqual([...ids].sort());
        for (const row of audit) expect(row.old_at, `round ${round}`).toBeNull();
        const stamps = new Map((await rows(tenant.workspaceId)).map((row) => [row.id, row.acknowledgedAt]));
        for (const row of audit) expect(row.new_at.toISOString()).toBe(stamps.get(row.id));

        // What each kind of call said it acknowledged is what its statements did.
        const byKind = { filter: 0, ids: 0, single: 0 };
        for (const row of audit) byKind[statementKind(row.query)] += 1;
        expect(
          filterAnswers.reduce((sum, answer) => sum + answer.acknowledgedCount, 0),
          `round ${round}`,
        ).toBe(byKind.filter);
        expect(
          idAnswers.reduce((sum, answer) => sum + answer.acknowledged.length, 0),
          `round ${round}`,
        ).toBe(byKind.ids);
        expect(byKind.single, `round ${round}`).toBeLessThanOrEqual(singles.length);
        expect(byKind.filter + byKind.ids + byKind.single).toBe(DELIVERIES);
        for (const answer of filterAnswers) expect(answer.hasMore).toBe(false);
      }
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER test_filter_ack_audit ON webhook_deliveries`);
    }
  }, 180_000);
});
