import { describe, expect, it } from "vitest";
import { invitationAccountSchema, invitationView } from "./invitation-view";

const intoWorkspace = {
  email: "ada@example.com",
  role: "member" as const,
  workspace: { name: "Engines" },
  invitedBy: "Charles",
  accountExists: false,
};
const signUp = { ...intoWorkspace, role: "owner" as const, workspace: null, invitedBy: null };

describe("invitationView", () => {
  it("calls a missing invitation (unknown, used, revoked, expired) invalid, whoever looks", () => {
    expect(invitationView(null, null)).toEqual({ kind: "invalid" });
    expect(invitationView(null, { email: "ada@example.com" })).toEqual({ kind: "invalid" });
  });

  it("offers to join when signed in with the invitation's email, in any case", () => {
    expect(invitationView({ ...intoWorkspace, accountExists: true }, { email: "Ada@Example.com" })).toEqual({
      kind: "join",
      workspaceName: "Engines",
      role: "member",
      invitedBy: "Charles",
    });
  });

  it("says a sign-up invitation is not for someone who has an account", () => {
    expect(invitationView({ ...signUp, accountExists: true }, { email: "ada@example.com" })).toEqual({
      kind: "has-account",
    });
  });

  it("names both addresses when signed in as someone else", () => {
    expect(invitationView(intoWorkspace, { email: "grace@example.com" })).toEqual({
      kind: "other-account",
      invitedEmail: "ada@example.com",
      signedInEmail: "grace@example.com",
    });
  });

  it("asks to sign in when the invited email has an account", () => {
    expect(invitationView({ ...intoWorkspace, accountExists: true }, null)).toEqual({
      kind: "sign-in",
      email: "ada@example.com",
    });
  });

  it("offers a new account, with a workspace of its own for a sign-up invitation", () => {
    expect(invitationView(intoWorkspace, null)).toEqual({
      kind: "create-account",
      email: "ada@example.com",
      workspaceName: "Engines",
      invitedBy: "Charles",
    });
    expect(invitationView(signUp, null)).toEqual({
      kind: "create-account",
      email: "ada@example.com",
      workspaceName: null,
      invitedBy: null,
    });
  });
});

describe("invitationAccountSchema", () => {
  const form = { name: " Ada ", email: "ignored@example.com", password: "correct horse", workspaceName: " Mine " };

  it("takes name and password for an invitation into a workspace, and nothing else", () => {
    expect(invitationAccountSchema(10, false).parse(form)).toEqual({ name: "Ada", password: "correct horse" });
  });

  it("also needs a workspace name for a sign-up invitation", () => {
    expect(invitationAccountSchema(10, true).parse(form)).toEqual({
      name: "Ada",
      password: "correct horse",
      workspaceName: "Mine",
    });
    const missing = invitationAccountSchema(10, true).safeParse({ ...form, password: "short", workspaceName: " " });
    expect(missing.error?.issues.map((issue) => issue.path.join("."))).toEqual(["password", "workspaceName"]);
  });
});
