import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, SIGN_IN_FAILURE_LIMIT } from "@/lib/auth/users";
import { startApp, type RunningApp } from "@/test/app-server";
import { signIn } from "./sessions";

/*
 * Sign-in throttling per source address, over HTTP through the real launcher. The app trusts 127.0.0.1 as a proxy, so
 * each request's `X-Forwarded-For` is its source. A source that keeps failing is refused; a source that has not been
 * failing still signs in, whoever else is guessing.
 */

let app: RunningApp;
const PASSWORD = "the right password";

beforeAll(async () => {
  app = await startApp({ TRUSTED_PROXIES: "127.0.0.1" });
});

afterAll(async () => {
  await app?.stop();
});

const from = (address: string) => ({ "x-forwarded-for": address });

describe("sign-in throttling per source", () => {
  it("locks out the failing source only: a correct sign-in from another source still succeeds", async () => {
    await createAccount({ email: "victim@example.com", password: PASSWORD, workspaceName: "Victim" });
    const attacker = from("203.0.113.7");
    for (let attempt = 0; attempt < SIGN_IN_FAILURE_LIMIT + 2; attempt += 1)
      expect(await signIn(app.baseUrl, "victim@example.com", `guess ${attempt}`, attacker)).toBeNull();
    // The attacker's source is locked out, even with the right password …
    expect(await signIn(app.baseUrl, "victim@example.com", PASSWORD, attacker)).toBeNull();
    // … the victim, from a source that has not been failing, is not.
    expect(await signIn(app.baseUrl, "victim@example.com", PASSWORD, from("198.51.100.9"))).not.toBeNull();
  });

  it("throttles one source spraying a password over 50 emails", async () => {
    await createAccount({ email: "sprayed@example.com", password: PASSWORD, workspaceName: "Sprayed" });
    const sprayer = from("203.0.113.50");
    for (let index = 0; index < 50; index += 1)
      expect(await signIn(app.baseUrl, `person${index}@example.com`, PASSWORD, sprayer)).toBeNull();
    // The 51st email's password is right, yet the source has been refused for a while now.
    expect(await signIn(app.baseUrl, "sprayed@example.com", PASSWORD, sprayer)).toBeNull();
    expect(await signIn(app.baseUrl, "sprayed@example.com", PASSWORD, from("198.51.100.10"))).not.toBeNull();
  });
});
