import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createAccountFromInvitation, createInvitation, hashInvitationToken } from "@/lib/auth/invitations";
import { createAccount } from "@/lib/auth/users";
import { domainEmailsContract } from "@/lib/contracts/enrichment";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { dataOf, errorOf, expectError, sendApi, type ApiAnswer } from "@/test/http-api";
import { dashboardHeaders, signIn } from "@/test/security/sessions";

/*
 * The operator's routes over HTTP: every workspace with its balances, adding funds (audited in the ledger under the
 * operator's email), and sign-up invitations (this app runs with SIGNUP=invite). Also the way out of a 402: the
 * message names the workspace and how to get funds, and an operator's credit makes the same call go through. The
 * app has no enrichment source, so a paid call that gets past the balance check is free and answers 200.
 */

const PASSWORD = "correct horse battery";
let app: RunningApp;

beforeAll(async () => {
  app = await startApp({
    SIGNUP: "invite",
    PUBLIC_BASE_URL: "",
    ENRICHMENT_PROVIDERS_DISABLED: "website,fingerprints,company-store,public-filings",
    SEC_EDGAR_ENABLED: "false",
    HUNTER_API_KEY: "",
    PEOPLEDATALABS_API_KEY: "",
    BUILTWITH_API_KEY: "",
  });
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

type Answer = ApiAnswer;

function send(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  return sendApi(app.baseUrl, method, path, headers, body);
}

interface OperatorWorkspace {
  id: string;
  name: string;
  owners: string[];
  memberCount: number;
  purchasedBalanceCents: number;
}

let serial = 0;

async function signedIn(label: string, operator = false) {
  serial += 1;
  const email = `${label}-${serial}@example.com`;
  const account = await createAccount({ email, password: PASSWORD, workspaceName: `${label} ${serial}`, operator });
  const cookies = (await signIn(app.baseUrl, email, PASSWORD))!;
  return { ...account, as: dashboardHeaders(cookies) };
}

const purchased = async (workspaceId: string) =>
  (await db().workspace.findUniqueOrThrow({ where: { id: workspaceId } })).purchasedBalanceCents;

describe("operators", () => {
  it("list every workspace with owners and balances, narrowed by q", async () => {
    const operator = await signedIn("operator", true);
    const customer = await signedIn("customer");
    const me = dataOf<{ user: { operator: boolean }; signUp: string }>(await send("GET", "/v1/me", operator.as));
    expect(me).toMatchObject({ user: { operator: true }, signUp: "invite" });

    const all = dataOf<{ workspaces: OperatorWorkspace[] }>(await send("GET", "/v1/operator/workspaces", operator.as));
    expect(all.workspaces).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: operator.workspaceId, owners: [operator.email], memberCount: 1 }),
        expect.objectContaining({ id: customer.workspaceId, owners: [customer.email], purchasedBalanceCents: 0 }),
      ]),
    );
    for (const q of [customer.email.toUpperCase(), customer.workspaceId, `customer ${serial}`]) {
      const narrowed = dataOf<{ workspaces: OperatorWorkspace[] }>(
        await send("GET", `/v1/operator/workspaces?q=${encodeURIComponent(q)}`, operator.as),
      );
      expect(
        narrowed.workspaces.map((workspace) => workspace.id),
        q,
      ).toEqual([customer.workspaceId]);
    }
  });

  it("are the only ones let in, and losing the role holds at once", async () => {
    const operator = await signedIn("operator", true);
    const customer = await signedIn("customer");
    for (const [method, path, body] of [
      ["GET", "/v1/operator/workspaces"],
      ["POST", `/v1/operator/workspaces/${operator.workspaceId}/credits`, { amountCents: 5 }],
      ["GET", "/v1/operator/invitations"],
      ["POST", "/v1/operator/invitations", { email: "x@example.com" }],
      ["DELETE", "/v1/operator/invitations/inv_any"],
    ] as const)
      expectError(await send(method, path, customer.as, body), 403, "forbidden");
    expect(await purchased(operator.workspaceId)).toBe(0);

    await db().user.update({ where: { id: operator.userId }, data: { isOperator: false } });
    expectError(await send("GET", "/v1/operator/workspaces", operator.as), 403, "forbidden");
  });

  it("credit a workspace: the balance grows and the ledger names the operator", async () => {
    const operator = await signedIn("operator", true);
    const customer = await signedIn("customer");
    const path = `/v1/operator/workspaces/${customer.workspaceId}/credits`;
    const credited = dataOf<OperatorWorkspace>(
      await send("POST", path, operator.as, { amountCents: 250, note: " Invoice 7 " }),
    );
    expect(credited).toMatchObject({ id: customer.workspaceId, purchasedBalanceCents: 250 });
    await send("POST", path, operator.as, { amountCents: 50 });
    expect(await purchased(customer.workspaceId)).toBe(300);
    const entries = await db().ledgerEntry.findMany({
      where: { workspaceId: customer.workspaceId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    expect(entries.map((entry) => [entry.kind, entry.purchasedDeltaCents, entry.note])).toEqual([
      ["credit", 250, `Operator credit by ${operator.email}: Invoice 7`],
      ["credit", 50, `Operator credit by ${operator.email}`],
    ]);

    for (const body of [
      { amountCents: 0 },
      { amountCents: -100 },
      { amountCents: 1.5 },
      { amountCents: "100" },
      { amountCents: 10_000_001 },
      {},
      { amountCents: 100, currency: "EUR" },
      { amountCents: 100, note: "x".repeat(201) },
    ])
      expectError(await send("POST", path, operator.as, body), 400, "validation_error");
    expectError(
      await send("POST", "/v1/operator/workspaces/ws_unknown/credits", operator.as, { amountCents: 5 }),
      404,
      "not_found",
    );
    expect(await purchased(customer.workspaceId)).toBe(300);
  });

  it("issue sign-up invitations: on the request's host, listed without secrets, revocable", async () => {
    const operator = await signedIn("operator", true);
    const owner = await signedIn("owner");
    const intoWorkspace = await createInvitation({
      workspaceId: owner.workspaceId,
      email: "guest@example.com",
      role: "member",
      invitedByUserId: owner.userId,
    });

    const created = dataOf<{ invitation: { id: string; role: string }; url: string }>(
      await send("POST", "/v1/operator/invitations", operator.as, { email: "Founder@Example.com" }),
      201,
    );
    expect(created.url).toMatch(new RegExp(`^${app.baseUrl}/invite/sbx_inv_[0-9A-Za-z]{40}$`));
    expect(created.invitation).toMatchObject({ email: "founder@example.com", role: "owner" });
    const token = created.url.slice(created.url.lastIndexOf("/") + 1);

    const listed = await send("GET", "/v1/operator/invitations", operator.as);
    const { invitations, signUp } = dataOf<{ invitations: { id: string }[]; signUp: string }>(listed);
    expect(signUp).toBe("invite");
    // Only sign-up invitations: not those into a workspace.
    expect(invitations.map((invitation) => invitation.id)).toEqual([created.invitation.id]);
    for (const secret of [token, hashInvitationToken(token)]) expect(listed.text).not.toContain(secret);

    expectError(
      await send("POST", "/v1/operator/invitations", operator.as, { email: owner.email }),
      400,
      "validation_error",
    );
    expectError(
      await send("DELETE", `/v1/operator/invitations/${intoWorkspace.invitation.id}`, operator.as),
      404,
      "not_found",
    );
    const revoked = await send("DELETE", `/v1/operator/invitations/${created.invitation.id}`, operator.as);
    expect(dataOf<{ invitations: unknown[] }>(revoked).invitations).toEqual([]);
    expectError(
      await send("DELETE", `/v1/operator/invitations/${created.invitation.id}`, operator.as),
      404,
      "not_found",
    );
    await expect(createAccountFromInvitation({ token, password: PASSWORD, workspaceName: "F" })).rejects.toMatchObject({
      code: "not_found",
    });
  });
});

describe("402 payment required", () => {
  it("names the workspace and how to add funds, and the call goes through after an operator's credit", async () => {
    const operator = await signedIn("operator", true);
    const customer = await signedIn("broke");
    const { key } = await createApiKey({ workspaceId: customer.workspaceId, name: "live", mode: "live" });
    const call = () =>
      send("POST", domainEmailsContract.path, { authorization: `Bearer ${key}` }, { domain: "acme.example" });

    const refused = await call();
    expectError(refused, 402, "payment_required");
    const { message } = errorOf(refused.json);
    expect(message).toContain(`workspace ${customer.workspaceId}`);
    expect(message).toContain(`npm run billing -- credit ${customer.workspaceId}`);
    expect(message).toMatch(/operator/i);

    dataOf(
      await send("POST", `/v1/operator/workspaces/${customer.workspaceId}/credits`, operator.as, { amountCents: 100 }),
    );
    const paid = await call();
    expect(paid.status, paid.text).toBe(200);
  });
});
