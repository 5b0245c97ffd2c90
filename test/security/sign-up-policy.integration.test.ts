import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_UP_CLOSED } from "@/app/(auth)/_lib/sign-up";
import { signUpAction } from "@/app/(auth)/sign-up/actions";
import { createAccount } from "@/lib/auth/users";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { readResponse } from "@/test/http-api";
import { dashboardHeaders, signIn } from "./sessions";

/*
 * SIGNUP=closed|invite|open, seen from outside: one app per policy on this file's database. Only `open` offers the
 * sign-up form (and the sign-in page's link to it); only `closed` refuses operators' sign-up invitations. The server
 * action behind the form is called in this process, where SIGNUP is unset (closed, the default).
 */

delete process.env.SIGNUP;

const POLICIES = ["closed", "invite", "open"] as const;
type Policy = (typeof POLICIES)[number];
const PASSWORD = "correct horse battery";
const apps = new Map<Policy, RunningApp>();
let operatorEmail: string;

beforeAll(async () => {
  operatorEmail = (
    await createAccount({ email: "operator@example.com", password: PASSWORD, workspaceName: "Ops", operator: true })
  ).email;
  const started = await Promise.all(POLICIES.map((policy) => startApp({ SIGNUP: policy })));
  POLICIES.forEach((policy, index) => apps.set(policy, started[index]!));
}, 180_000);

afterAll(async () => {
  await Promise.all([...apps.values()].map((app) => app.stop()));
});

const page = async (policy: Policy, path: string) =>
  readResponse(await fetch(`${apps.get(policy)!.baseUrl}${path}`, { redirect: "manual" }));

describe.each(POLICIES)("SIGNUP=%s", (policy) => {
  const open = policy === "open";

  it(
    open ? "offers the sign-up form, linked from sign-in" : "shows sign-up as closed, with no link to it",
    async () => {
      const signUp = await page(policy, "/sign-up");
      expect(signUp.status).toBe(200);
      expect(signUp.text.includes(SIGN_UP_CLOSED)).toBe(!open);
      expect(/<form[\s>]/.test(signUp.text)).toBe(open);

      const signInPage = await page(policy, "/sign-in");
      expect(signInPage.status).toBe(200);
      expect(signInPage.text.includes('href="/sign-up"')).toBe(open);
    },
  );

  it(`tells the dashboard the policy, and ${policy === "closed" ? "refuses" : "issues"} sign-up invitations`, async () => {
    const app = apps.get(policy)!;
    const headers = dashboardHeaders((await signIn(app.baseUrl, operatorEmail, PASSWORD))!);
    const me = await readResponse(await fetch(`${app.baseUrl}/v1/me`, { headers }));
    expect(me.json).toMatchObject({ data: { signUp: policy, user: { operator: true } } });

    const invited = await readResponse(
      await fetch(`${app.baseUrl}/v1/operator/invitations`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ email: `invitee-${policy}@example.com` }),
      }),
    );
    expect(invited.status, invited.text).toBe(policy === "closed" ? 403 : 201);
    expect(await db().invitation.count({ where: { email: `invitee-${policy}@example.com` } })).toBe(
      policy === "closed" ? 0 : 1,
    );
  });
});

describe("the sign-up form's server action", () => {
  it("refuses while sign-up is closed, creating no account", async () => {
    const result = await signUpAction({
      name: "Walk In",
      email: "walk-in@example.com",
      password: PASSWORD,
      workspaceName: "Mine",
    });
    expect(result).toEqual({ ok: false, message: SIGN_UP_CLOSED, fieldErrors: {} });
    expect(await db().user.count({ where: { email: "walk-in@example.com" } })).toBe(0);
  });
});
