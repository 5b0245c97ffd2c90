import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createAccount } from "@/lib/auth/users";
import { createWorkspace } from "@/lib/auth/workspaces";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { dataOf, detailPaths, errorOf, expectError, requestApi, sendApi } from "@/test/http-api";
import { dashboardHeaders, signIn } from "@/test/security/sessions";

// Retention settings over HTTP (issue #22): an endpoint's own `retention`, the workspace's `deliveryRetention`, the
// `effectiveRetention` they make, who may change the default, and what the database itself refuses to store.

let app: RunningApp;

beforeAll(async () => {
  app = await startApp({ PUBLIC_BASE_URL: "" });
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

interface Policy {
  acknowledgedDays: number | null;
  allDays: number | null;
}
interface Endpoint {
  id: string;
  retention: Policy | null;
  effectiveRetention: Policy & { source: string };
}
interface Workspace {
  id: string;
  deliveryRetention: Policy | null;
}

const KEEP_ALL = { acknowledgedDays: null, allDays: null };

async function newTenant() {
  const workspace = await createWorkspace({ name: `Retention ${randomBytes(3).toString("hex")}` });
  const { key } = await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" });
  const call = (method: string, path: string, body?: unknown) => requestApi(app.baseUrl, key, method, path, body);
  return {
    workspaceId: workspace.id,
    key,
    call,
    createEndpoint: async (body: Record<string, unknown> = {}) =>
      dataOf<Endpoint>(await call("POST", "/v1/webhook-endpoints", { name: "Stripe", ...body }), 201),
    getEndpoint: async (id: string) => dataOf<Endpoint>(await call("GET", `/v1/webhook-endpoints/${id}`)),
    patchEndpoint: async (id: string, body: unknown) =>
      dataOf<Endpoint>(await call("PATCH", `/v1/webhook-endpoints/${id}`, body)),
    setDefault: async (deliveryRetention: unknown) =>
      dataOf<{ workspace: Workspace }>(await call("PATCH", "/v1/workspace", { deliveryRetention })).workspace,
    getWorkspace: async () => dataOf<{ workspace: Workspace }>(await call("GET", "/v1/workspace")).workspace,
  };
}

describe("an endpoint's retention", () => {
  it("keeps everything until an endpoint or its workspace says otherwise", async () => {
    const tenant = await newTenant();
    const endpoint = await tenant.createEndpoint();
    expect(endpoint.retention).toBeNull();
    expect(endpoint.effectiveRetention).toEqual({ ...KEEP_ALL, source: "none" });
    expect((await tenant.getWorkspace()).deliveryRetention).toBeNull();
  });

  it("is set on create, changed by PATCH, and null returns it to the workspace default", async () => {
    const tenant = await newTenant();
    await tenant.setDefault({ allDays: 90 });
    const own = { acknowledgedDays: 7, allDays: 30 };
    const endpoint = await tenant.createEndpoint({ retention: own });
    expect(endpoint.retention).toEqual(own);
    expect(endpoint.effectiveRetention).toEqual({ ...own, source: "endpoint" });

    // The object replaces the whole policy: a member left out is null.
    const changed = await tenant.patchEndpoint(endpoint.id, { retention: { acknowledgedDays: 3 } });
    expect(changed.retention).toEqual({ acknowledgedDays: 3, allDays: null });
    expect(changed.effectiveRetention).toEqual({ acknowledgedDays: 3, allDays: null, source: "endpoint" });

    // Another field alone leaves the policy as it is.
    expect((await tenant.patchEndpoint(endpoint.id, { name: "Renamed" })).retention).toEqual(changed.retention);

    const back = await tenant.patchEndpoint(endpoint.id, { retention: null });
    expect(back.retention).toBeNull();
    expect(back.effectiveRetention).toEqual({ acknowledgedDays: null, allDays: 90, source: "workspace" });

    // `{}` is a policy of its own that keeps everything, whatever the workspace default.
    const keepAll = await tenant.patchEndpoint(endpoint.id, { retention: {} });
    expect(keepAll.retention).toEqual(KEEP_ALL);
    expect(keepAll.effectiveRetention).toEqual({ ...KEEP_ALL, source: "endpoint" });

    // Stored with both members written, which is what the deletion job reads.
    const row = await db().webhookEndpoint.findFirstOrThrow({
      where: { id: endpoint.id },
      select: { retention: true },
    });
    expect(row.retention).toEqual(KEEP_ALL);
  });

  it("follows the workspace default on every read: get, list, and after the default changes", async () => {
    const tenant = await newTenant();
    const endpoint = await tenant.createEndpoint();
    await tenant.setDefault({ acknowledgedDays: 1, allDays: 14 });
    const expected = { acknowledgedDays: 1, allDays: 14, source: "workspace" };
    expect((await tenant.getEndpoint(endpoint.id)).effectiveRetention).toEqual(expected);
    const { endpoints } = dataOf<{ endpoints: Endpoint[] }>(await tenant.call("GET", "/v1/webhook-endpoints"));
    expect(endpoints.map((listed) => listed.effectiveRetention)).toEqual([expected]);
    expect((await tenant.createEndpoint()).effectiveRetention).toEqual(expected);

    await tenant.setDefault(null);
    expect((await tenant.getEndpoint(endpoint.id)).effectiveRetention).toEqual({ ...KEEP_ALL, source: "none" });
  });

  it.each([
    ["zero days", { allDays: 0 }, "retention.allDays"],
    ["more than ten years", { allDays: 3651 }, "retention.allDays"],
    ["a fraction", { acknowledgedDays: 1.5 }, "retention.acknowledgedDays"],
    ["a string", { allDays: "30" }, "retention.allDays"],
    ["acknowledged kept longer than all", { acknowledgedDays: 31, allDays: 30 }, "retention.acknowledgedDays"],
    ["an unknown member", { allDays: 30, pendingDays: 5 }, "retention.pendingDays"],
    ["not an object", 30, "retention"],
  ])("refuses %s with 400, on create and on PATCH, and stores nothing", async (_case, retention, path) => {
    const tenant = await newTenant();
    const endpoint = await tenant.createEndpoint();
    const created = await tenant.call("POST", "/v1/webhook-endpoints", { name: "Bad", retention });
    expectError(created, 400, "validation_error");
    expect(detailPaths(created.json)).toEqual([path]);
    const patched = await tenant.call("PATCH", `/v1/webhook-endpoints/${endpoint.id}`, { retention });
    expectError(patched, 400, "validation_error");
    expect(detailPaths(patched.json)).toEqual([path]);
    expect(await db().webhookEndpoint.count({ where: { workspaceId: tenant.workspaceId } })).toBe(1);
    expect((await tenant.getEndpoint(endpoint.id)).retention).toBeNull();
  });

  it("says why acknowledgedDays cannot exceed allDays", async () => {
    const tenant = await newTenant();
    const answer = await tenant.call("POST", "/v1/webhook-endpoints", {
      name: "Bad",
      retention: { acknowledgedDays: 60, allDays: 30 },
    });
    expect(errorOf(answer.json).details?.[0]?.message).toBe(
      "must not be more than `allDays`: every delivery is deleted after `allDays`",
    );
  });

  it("keeps workspaces apart: another workspace can neither change an endpoint's policy nor lend it its default", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const endpoint = await a.createEndpoint();
    await b.setDefault({ allDays: 1 });
    expectError(
      await b.call("PATCH", `/v1/webhook-endpoints/${endpoint.id}`, { retention: { allDays: 1 } }),
      404,
      "not_found",
    );
    const after = await a.getEndpoint(endpoint.id);
    expect(after.retention).toBeNull();
    expect(after.effectiveRetention).toEqual({ ...KEEP_ALL, source: "none" });
    expect((await a.getWorkspace()).deliveryRetention).toBeNull();
  });
});

describe("the workspace default", () => {
  it("is set and cleared with PATCH /v1/workspace and shown by GET /v1/workspace", async () => {
    const tenant = await newTenant();
    const set = await tenant.setDefault({ acknowledgedDays: 7, allDays: 30 });
    expect(set).toMatchObject({ id: tenant.workspaceId, deliveryRetention: { acknowledgedDays: 7, allDays: 30 } });
    expect((await tenant.getWorkspace()).deliveryRetention).toEqual({ acknowledgedDays: 7, allDays: 30 });

    // A default that keeps everything is no default.
    expect((await tenant.setDefault({})).deliveryRetention).toBeNull();
    await tenant.setDefault({ allDays: 5 });
    expect((await tenant.setDefault(null)).deliveryRetention).toBeNull();
    expect((await tenant.getWorkspace()).deliveryRetention).toBeNull();
  });

  it.each([
    ["no field", {}, [""]],
    // Unknown fields are left out before the "at least one" check, which then finds none.
    ["an unknown field", { name: "Renamed" }, ["", "name"]],
    ["too many days", { deliveryRetention: { allDays: 4000 } }, ["deliveryRetention.allDays"]],
    [
      "acknowledged kept longer than all",
      { deliveryRetention: { acknowledgedDays: 9, allDays: 8 } },
      ["deliveryRetention.acknowledgedDays"],
    ],
  ])("refuses %s with 400", async (_case, body, paths) => {
    const tenant = await newTenant();
    const answer = await tenant.call("PATCH", "/v1/workspace", body);
    expectError(answer, 400, "validation_error");
    expect(detailPaths(answer.json).sort()).toEqual(paths);
    expect((await tenant.getWorkspace()).deliveryRetention).toBeNull();
  });

  it("is changed by owners in the dashboard, not by members, and by keys with endpoints:admin only", async () => {
    const password = "correct horse battery";
    const tag = randomBytes(4).toString("hex");
    const owner = await createAccount({ email: `owner-${tag}@example.com`, password, workspaceName: `Owned ${tag}` });
    const member = await createAccount({ email: `member-${tag}@example.com`, password, workspaceName: `Own ${tag}` });
    await db().workspaceMember.create({
      data: { workspaceId: owner.workspaceId, userId: member.userId, role: "member" },
    });
    const as = async (email: string) =>
      dashboardHeaders((await signIn(app.baseUrl, email, password))!, owner.workspaceId);
    const body = { deliveryRetention: { allDays: 30 } };

    const refused = await sendApi(app.baseUrl, "PATCH", "/v1/workspace", await as(`member-${tag}@example.com`), body);
    expectError(refused, 403, "forbidden");
    const ownerHeaders = await as(`owner-${tag}@example.com`);
    const allowed = await sendApi(app.baseUrl, "PATCH", "/v1/workspace", ownerHeaders, body);
    expect(dataOf<{ workspace: Workspace }>(allowed).workspace.deliveryRetention).toEqual({
      acknowledgedDays: null,
      allDays: 30,
    });

    const reader = await createApiKey({
      workspaceId: owner.workspaceId,
      name: "r",
      mode: "live",
      scopes: ["inbox:read"],
    });
    const readOnly = await requestApi(app.baseUrl, reader.key, "PATCH", "/v1/workspace", { deliveryRetention: null });
    expectError(readOnly, 403, "forbidden");
    // Reading the default needs no scope: it is part of who-am-I.
    expect(
      dataOf<{ workspace: Workspace }>(await requestApi(app.baseUrl, reader.key, "GET", "/v1/workspace")).workspace
        .deliveryRetention,
    ).toEqual({
      acknowledgedDays: null,
      allDays: 30,
    });
  });
});

describe("the database's own check", () => {
  it.each([
    ["no allDays member", { acknowledgedDays: 7 }],
    ["zero days", { acknowledgedDays: null, allDays: 0 }],
    ["a fraction", { acknowledgedDays: 1.5, allDays: null }],
    ["a string", { acknowledgedDays: null, allDays: "30" }],
    ["acknowledged longer than all", { acknowledgedDays: 31, allDays: 30 }],
    ["an extra member", { acknowledgedDays: null, allDays: 30, other: 1 }],
    ["an array", [7, 30]],
    ["a number", 30],
  ])("refuses %s on both columns, so the deletion job can read policies without guarding", async (_case, policy) => {
    const tenant = await newTenant();
    const endpoint = await tenant.createEndpoint();
    const json = JSON.stringify(policy);
    await expect(
      db().$executeRaw`UPDATE workspaces SET delivery_retention = ${json}::jsonb WHERE id = ${tenant.workspaceId}`,
    ).rejects.toThrow(/workspaces_delivery_retention_check/);
    await expect(
      db()
        .$executeRaw`UPDATE webhook_endpoints SET retention = ${json}::jsonb WHERE workspace_id = ${tenant.workspaceId} AND id = ${endpoint.id}`,
    ).rejects.toThrow(/webhook_endpoints_retention_check/);
  });

  it("accepts what the API writes, on both columns", async () => {
    const tenant = await newTenant();
    const endpoint = await tenant.createEndpoint();
    for (const policy of [KEEP_ALL, { acknowledgedDays: 1, allDays: 3650 }, { acknowledgedDays: 30, allDays: 30 }]) {
      const json = JSON.stringify(policy);
      await db()
        .$executeRaw`UPDATE workspaces SET delivery_retention = ${json}::jsonb WHERE id = ${tenant.workspaceId}`;
      await db()
        .$executeRaw`UPDATE webhook_endpoints SET retention = ${json}::jsonb WHERE workspace_id = ${tenant.workspaceId} AND id = ${endpoint.id}`;
      expect((await tenant.getEndpoint(endpoint.id)).retention).toEqual(policy);
    }
  });
});
