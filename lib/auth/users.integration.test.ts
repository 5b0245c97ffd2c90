import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import {
  authenticateUser,
  createAccount,
  findOrCreateOAuthUser,
  listUserWorkspaces,
  SIGN_IN_EMAIL_FAILURE_LIMIT,
  SIGN_IN_FAILURE_LIMIT,
  SIGN_IN_SOURCE_FAILURE_LIMIT,
} from "./users";

const HERE = "192.0.2.1";

// OAuth creates accounts only when sign-up is open; lib/auth/sign-up-policy.integration.test.ts covers the other modes.
process.env.SIGNUP = "open";

describe("accounts", () => {
  it("creates a user with an owned workspace, email case-insensitively unique", async () => {
    const account = await createAccount({
      email: " Grace@Example.com ",
      password: "long enough pass",
      name: "Grace",
      workspaceName: "Navy",
    });
    expect(account.email).toBe("grace@example.com");
    expect(await listUserWorkspaces(account.userId)).toEqual([
      { id: account.workspaceId, name: "Navy", role: "owner" },
    ]);
    await expect(
      createAccount({ email: "GRACE@example.com", password: "long enough pass", workspaceName: "Again" }),
    ).rejects.toMatchObject({
      code: "validation_error",
      details: [{ path: "email", message: "is taken" }],
    });
    await expect(
      createAccount({ email: "short@example.com", password: "short", workspaceName: "S" }),
    ).rejects.toMatchObject({
      code: "validation_error",
      details: [{ path: "password", message: expect.any(String) }],
    });
  });

  it("authenticates by email and password only", async () => {
    await createAccount({ email: "alan@example.com", password: "enigma machine", workspaceName: "Bletchley" });
    expect(await authenticateUser("ALAN@example.com", "enigma machine", HERE)).toMatchObject({
      email: "alan@example.com",
    });
    expect(await authenticateUser("alan@example.com", "enigma machine!", HERE)).toBeNull();
    expect(await authenticateUser("nobody@example.com", "enigma machine", HERE)).toBeNull();
  });

  it("refuses an email from a failing source after too many failures in 15 minutes, then lets it in again", async () => {
    await createAccount({ email: "target@example.com", password: "the right password", workspaceName: "T" });
    for (let attempt = 0; attempt < SIGN_IN_FAILURE_LIMIT; attempt += 1)
      expect(await authenticateUser("target@example.com", `guess ${attempt}`, HERE)).toBeNull();
    expect(await authenticateUser("target@example.com", "the right password", HERE)).toBeNull();
    // Other emails from that source, and that email from another source, are not affected.
    await createAccount({ email: "bystander@example.com", password: "the right password", workspaceName: "B" });
    expect(await authenticateUser("bystander@example.com", "the right password", HERE)).not.toBeNull();
    expect(await authenticateUser("target@example.com", "the right password", "192.0.2.2")).not.toBeNull();

    await db()
      .$executeRaw`UPDATE sign_in_failures SET created_at = now() - interval '16 minutes' WHERE email = 'target@example.com'`;
    expect(await authenticateUser("target@example.com", "the right password", HERE)).not.toBeNull();
  });

  it("refuses a source that fails over many emails (spraying), not the others", async () => {
    await createAccount({ email: "sprayed@example.com", password: "the right password", workspaceName: "S" });
    const sprayer = "198.51.100.77";
    for (let index = 0; index < SIGN_IN_SOURCE_FAILURE_LIMIT; index += 1)
      expect(await authenticateUser(`nobody${index}@example.com`, "the right password", sprayer)).toBeNull();
    expect(await authenticateUser("sprayed@example.com", "the right password", sprayer)).toBeNull();
    expect(await authenticateUser("sprayed@example.com", "the right password", "198.51.100.78")).not.toBeNull();
  });

  it("refuses every source that failed on an email guessed from many sources, not a source that did not", async () => {
    await createAccount({ email: "popular@example.com", password: "the right password", workspaceName: "P" });
    await db().signInFailure.createMany({
      data: Array.from({ length: SIGN_IN_EMAIL_FAILURE_LIMIT }, (_, index) => ({
        id: crypto.randomUUID(),
        email: "popular@example.com",
        sourceIp: `10.0.${Math.floor(index / 250)}.${index % 250}`,
      })),
    });
    expect(await authenticateUser("popular@example.com", "the right password", "10.0.0.1")).toBeNull();
    expect(await authenticateUser("popular@example.com", "the right password", "172.16.0.1")).not.toBeNull();
  });

  it("maps an OAuth sign-in to one user by email, creating it with a workspace once", async () => {
    const first = await findOrCreateOAuthUser({ email: "Octo@Example.com", name: "Octo Cat" });
    expect(await findOrCreateOAuthUser({ email: "octo@example.com", name: "Other" })).toBe(first);
    expect(await listUserWorkspaces(first)).toEqual([
      { id: expect.any(String), name: "Octo Cat's workspace", role: "owner" },
    ]);
  });
});
