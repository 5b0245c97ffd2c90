import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createAccountFromInvitation, hashInvitationToken } from "@/lib/auth/invitations";
import { createAccount } from "@/lib/auth/users";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { closedPort } from "@/test/enrichment-harness";
import { dataOf, errorOf, expectError, sendApi, type ApiAnswer } from "@/test/http-api";
import { dashboardHeaders, signIn } from "@/test/security/sessions";

/*
 * Members and invitations over HTTP, as the dashboard calls them (session cookie + dashboard header): who may do what
 * (API keys are not people; members are not owners; nobody here is an operator), and that one workspace's owner can
 * neither see nor change another's people.
 */

const PASSWORD = "correct horse battery";
let app: RunningApp;
let baseUrl: string;
/** Another name for the app's address than the one requests use, so links that follow a request's Host show up. */
let publicBaseUrl: string;

beforeAll(async () => {
  const port = await closedPort();
  publicBaseUrl = `http://localhost:${port}`;
  app = await startApp({ PORT: String(port), PUBLIC_BASE_URL: publicBaseUrl });
  baseUrl = `http://127.0.0.1:${port}`;
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

type Answer = ApiAnswer;

function send(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  return sendApi(baseUrl, method, path, headers, body);
}

interface Invited {
  invitation: { id: string; email: string; role: string };
  url: string;
}
const tokenOf = (invited: Invited) => invited.url.slice(invited.url.lastIndexOf("/") + 1);
const memberIds = (answer: Answer) =>
  dataOf<{ members: { userId: string; role: string }[] }>(answer).members.map((member) => [member.userId, member.role]);

let serial = 0;

/** An owner with their own workspace, signed in: `as` are their dashboard headers. */
async function signedInOwner(label: string) {
  serial += 1;
  const email = `${label}-${serial}@example.com`;
  const account = await createAccount({ email, password: PASSWORD, workspaceName: `${label} ${serial}` });
  const cookies = (await signIn(baseUrl, email, PASSWORD))!;
  return { ...account, cookies, as: dashboardHeaders(cookies, account.workspaceId) };
}

/** Invites `email` into the owner's workspace over HTTP, has them accept by creating an account, and signs them in. */
async function invitedMember(owner: { as: Record<string, string>; workspaceId: string }, email: string) {
  const invited = dataOf<Invited>(await send("POST", "/v1/workspace/invitations", owner.as, { email }), 201);
  const account = await createAccountFromInvitation({ token: tokenOf(invited), password: PASSWORD });
  const cookies = (await signIn(baseUrl, email, PASSWORD))!;
  return { ...account, cookies, as: dashboardHeaders(cookies, owner.workspaceId) };
}

/** Every people-only operation, with a body that would pass validation. */
const PEOPLE_ROUTES = (userId: string, invitationId: string, workspaceId: string) =>
  [
    ["GET", "/v1/me"],
    ["GET", "/v1/workspace/members"],
    ["PATCH", `/v1/workspace/members/${userId}`, { role: "owner" }],
    ["DELETE", `/v1/workspace/members/${userId}`],
    ["GET", "/v1/workspace/invitations"],
    ["POST", "/v1/workspace/invitations", { email: "someone@example.com" }],
    ["DELETE", `/v1/workspace/invitations/${invitationId}`],
    ["GET", "/v1/operator/workspaces"],
    ["POST", `/v1/operator/workspaces/${workspaceId}/credits`, { amountCents: 100 }],
    ["GET", "/v1/operator/invitations"],
    ["POST", "/v1/operator/invitations", { email: "someone@example.com" }],
    ["DELETE", `/v1/operator/invitations/${invitationId}`],
  ] as const;

describe("API keys", () => {
  it("get 403 on every people-only route, changing nothing", async () => {
    const owner = await signedInOwner("keys");
    const invited = dataOf<Invited>(
      await send("POST", "/v1/workspace/invitations", owner.as, { email: "pending@example.com" }),
      201,
    );
    const live = await createApiKey({ workspaceId: owner.workspaceId, name: "live", mode: "live" });
    const test = await createApiKey({ workspaceId: owner.workspaceId, name: "test", mode: "test" });
    for (const key of [live.key, test.key]) {
      for (const [method, path, body] of PEOPLE_ROUTES(owner.userId, invited.invitation.id, owner.workspaceId)) {
        const answer = await send(method, path, { authorization: `Bearer ${key}` }, body);
        expect(answer.status, `${key.slice(0, 9)} ${method} ${path}: ${answer.text}`).toBe(403);
        expect(errorOf(answer.json).code).toBe("forbidden");
      }
    }
    // Without a key or session: 401, as everywhere.
    expect((await send("GET", "/v1/me", {})).status).toBe(401);
    expect(memberIds(await send("GET", "/v1/workspace/members", owner.as))).toEqual([[owner.userId, "owner"]]);
    const pending = dataOf<{ invitations: { id: string }[] }>(await send("GET", "/v1/workspace/invitations", owner.as));
    expect(pending.invitations.map((invitation) => invitation.id)).toEqual([invited.invitation.id]);
  });
});

describe("an owner", () => {
  it("invites with a link on PUBLIC_BASE_URL (not the request's host), lists and revokes, never showing a token or its hash", async () => {
    const owner = await signedInOwner("inviter");
    const created = await send("POST", "/v1/workspace/invitations", owner.as, {
      email: " New.Person@Example.com ",
      role: "owner",
    });
    const invited = dataOf<Invited>(created, 201);
    expect(invited.url).toMatch(new RegExp(`^${publicBaseUrl}/invite/sbx_inv_[0-9A-Za-z]{40}$`));
    expect(invited.invitation).toMatchObject({ email: "new.person@example.com", role: "owner" });
    const token = tokenOf(invited);
    const hash = hashInvitationToken(token);

    const listed = await send("GET", "/v1/workspace/invitations", owner.as);
    expect(dataOf<{ invitations: unknown[] }>(listed).invitations).toEqual([
      expect.objectContaining({ id: invited.invitation.id, invitedBy: owner.email }),
    ]);
    for (const secret of [token, hash, token.slice("sbx_inv_".length)]) expect(listed.text).not.toContain(secret);

    const revoked = await send("DELETE", `/v1/workspace/invitations/${invited.invitation.id}`, owner.as);
    expect(dataOf<{ invitations: unknown[] }>(revoked).invitations).toEqual([]);
    expect(revoked.text).not.toContain(hash);
    expectError(await send("DELETE", `/v1/workspace/invitations/${invited.invitation.id}`, owner.as), 404, "not_found");
    await expect(createAccountFromInvitation({ token, password: PASSWORD })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("gets 400 for a bad invitation and for inviting a member", async () => {
    const owner = await signedInOwner("careful");
    for (const body of [
      { email: "not an email" },
      { email: "ok@example.com", role: "admin" },
      { email: "ok@example.com", workspaceId: "ws_other" },
      { email: owner.email },
    ])
      expectError(await send("POST", "/v1/workspace/invitations", owner.as, body), 400, "validation_error");
  });

  it("changes roles, and cannot leave the workspace without an owner", async () => {
    const owner = await signedInOwner("roles");
    const member = await invitedMember(owner, `roles-member-${serial}@example.com`);
    expectError(
      await send("PATCH", `/v1/workspace/members/${owner.userId}`, owner.as, { role: "member" }),
      400,
      "validation_error",
    );
    expectError(await send("DELETE", `/v1/workspace/members/${owner.userId}`, owner.as), 400, "validation_error");
    expectError(
      await send("PATCH", `/v1/workspace/members/${member.userId}`, owner.as, { role: "boss" }),
      400,
      "validation_error",
    );
    expectError(await send("PATCH", "/v1/workspace/members/usr_nobody", owner.as, { role: "owner" }), 404, "not_found");

    const promoted = await send("PATCH", `/v1/workspace/members/${member.userId}`, owner.as, { role: "owner" });
    expect(memberIds(promoted)).toEqual([
      [owner.userId, "owner"],
      [member.userId, "owner"],
    ]);
    // The promoted member now acts as an owner: they demote the first owner, then remove them.
    await send("PATCH", `/v1/workspace/members/${owner.userId}`, member.as, { role: "member" });
    const removed = await send("DELETE", `/v1/workspace/members/${owner.userId}`, member.as);
    expect(memberIds(removed)).toEqual([[member.userId, "owner"]]);
    expectError(await send("GET", "/v1/workspace/members", owner.as), 404, "not_found");
  });
});

describe("a member", () => {
  it("gets 403 on owner and operator routes, sees the members, and is no operator", async () => {
    const owner = await signedInOwner("team");
    const member = await invitedMember(owner, `team-member-${serial}@example.com`);
    const pending = dataOf<Invited>(
      await send("POST", "/v1/workspace/invitations", owner.as, { email: "later@example.com" }),
      201,
    );

    const me = dataOf<{ user: { id: string; operator: boolean }; signUp: string }>(
      await send("GET", "/v1/me", member.as),
    );
    expect(me).toMatchObject({ user: { id: member.userId, operator: false }, signUp: "closed" });
    expect(memberIds(await send("GET", "/v1/workspace/members", member.as))).toEqual([
      [owner.userId, "owner"],
      [member.userId, "member"],
    ]);
    for (const [method, path, body] of PEOPLE_ROUTES(owner.userId, pending.invitation.id, owner.workspaceId).slice(2)) {
      const answer = await send(method, path, member.as, body);
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(403);
    }
    // Nor may a member promote themselves.
    expectError(
      await send("PATCH", `/v1/workspace/members/${member.userId}`, member.as, { role: "owner" }),
      403,
      "forbidden",
    );
    expect(memberIds(await send("GET", "/v1/workspace/members", owner.as))).toEqual([
      [owner.userId, "owner"],
      [member.userId, "member"],
    ]);
  });

  it("creates test keys but no live key, neither directly nor through a test key", async () => {
    const owner = await signedInOwner("spend");
    const member = await invitedMember(owner, `spend-member-${serial}@example.com`);
    const testKey = dataOf<{ key: string }>(
      await send("POST", "/v1/api-keys", member.as, { name: "mine", mode: "test" }),
      201,
    );
    expect(testKey.key).toMatch(/^sbx_test_/);
    expectError(await send("POST", "/v1/api-keys", member.as, { name: "money", mode: "live" }), 403, "forbidden");
    expectError(
      await send("POST", "/v1/api-keys", { authorization: `Bearer ${testKey.key}` }, { name: "money", mode: "live" }),
      403,
      "forbidden",
    );
    expect(await db().apiKey.count({ where: { workspaceId: owner.workspaceId, mode: "live" } })).toBe(0);
    // An owner may.
    expect((await send("POST", "/v1/api-keys", owner.as, { name: "money", mode: "live" })).status).toBe(201);
  });

  it("can leave, and then no longer reaches the workspace", async () => {
    const owner = await signedInOwner("door");
    const member = await invitedMember(owner, `door-member-${serial}@example.com`);
    const left = await send("DELETE", `/v1/workspace/members/${member.userId}`, member.as);
    expect(memberIds(left)).toEqual([[owner.userId, "owner"]]);
    expectError(await send("GET", "/v1/workspace", member.as), 404, "not_found");
  });
});

describe("tenant isolation", () => {
  it("lets an owner of one workspace neither see nor change another's invitations and members", async () => {
    const alice = await signedInOwner("alice");
    const aliceMember = await invitedMember(alice, `alice-member-${serial}@example.com`);
    const aliceInvitation = dataOf<Invited>(
      await send("POST", "/v1/workspace/invitations", alice.as, { email: "alices-guest@example.com" }),
      201,
    );
    const bob = await signedInOwner("bob");

    const bobsList = await send("GET", "/v1/workspace/invitations", bob.as);
    expect(dataOf<{ invitations: unknown[] }>(bobsList).invitations).toEqual([]);
    expect(memberIds(await send("GET", "/v1/workspace/members", bob.as))).toEqual([[bob.userId, "owner"]]);
    for (const [method, path, body] of [
      ["DELETE", `/v1/workspace/invitations/${aliceInvitation.invitation.id}`],
      ["PATCH", `/v1/workspace/members/${aliceMember.userId}`, { role: "owner" }],
      ["PATCH", `/v1/workspace/members/${alice.userId}`, { role: "member" }],
      ["DELETE", `/v1/workspace/members/${aliceMember.userId}`],
      ["DELETE", `/v1/workspace/members/${alice.userId}`],
    ] as const) {
      expectError(await send(method, path, bob.as, body), 404, "not_found");
    }
    // Naming Alice's workspace in the header is 404 too, like an unknown workspace.
    const intruding = dashboardHeaders(bob.cookies, alice.workspaceId);
    for (const path of ["/v1/workspace/members", "/v1/workspace/invitations", "/v1/me"])
      expectError(await send("GET", path, intruding), 404, "not_found");
    expectError(await send("DELETE", `/v1/workspace/members/${aliceMember.userId}`, intruding), 404, "not_found");

    expect(memberIds(await send("GET", "/v1/workspace/members", alice.as))).toEqual([
      [alice.userId, "owner"],
      [aliceMember.userId, "member"],
    ]);
    const alicesList = dataOf<{ invitations: { id: string }[] }>(
      await send("GET", "/v1/workspace/invitations", alice.as),
    );
    expect(alicesList.invitations.map((invitation) => invitation.id)).toEqual([aliceInvitation.invitation.id]);
  });
});
