import { setSubscriptionAllowance } from "@/lib/billing/balances";
import { db } from "@/lib/db/client";
import { createId, randomBase62 } from "@/lib/ids";
import { createApiKey } from "@/lib/auth/api-keys";
import { hashPassword } from "@/lib/auth/password";
import { createWorkspace } from "@/lib/auth/workspaces";

export const DEMO_USER_EMAIL = "demo@signalbox.local";
/** A monthly allowance for the demo workspace, so its live key can make priced calls straight away. */
export const DEMO_ALLOWANCE_CENTS = 1_000;
// Any constant works; it serialises first-run seeding between instances that start together.
const SEED_LOCK_KEY = 72_707_370;

export interface DemoCredentials {
  workspaceId: string;
  workspaceName: string;
  email: string;
  password: string;
  liveKey: string;
  testKey: string;
}

/**
 * On the very first start (no workspace exists yet) creates a demo user, who is the server's first operator, its
 * workspace, and one live and one test key, and returns their secrets so the launcher can print them once. Later
 * starts return null.
 */
export async function ensureDemoWorkspace(): Promise<DemoCredentials | null> {
  const password = randomBase62(16);
  const passwordHash = await hashPassword(password);
  const demo = await db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY})`;
    if ((await tx.workspace.count()) > 0) return null;
    const user = await tx.user.create({
      data: { id: createId("usr"), email: DEMO_USER_EMAIL, name: "Demo user", passwordHash, isOperator: true },
    });
    const workspace = await createWorkspace({ name: "Demo workspace", ownerUserId: user.id, client: tx });
    const live = await createApiKey({
      workspaceId: workspace.id,
      name: "Demo live key",
      mode: "live",
      createdByUserId: user.id,
      client: tx,
    });
    const test = await createApiKey({
      workspaceId: workspace.id,
      name: "Demo test key",
      mode: "test",
      createdByUserId: user.id,
      client: tx,
    });
    return {
      workspaceId: workspace.id,
      workspaceName: workspace.name,
      email: user.email,
      password,
      liveKey: live.key,
      testKey: test.key,
    };
  });
  if (demo)
    await setSubscriptionAllowance({
      workspaceId: demo.workspaceId,
      allowanceCents: DEMO_ALLOWANCE_CENTS,
      note: "Demo workspace allowance",
    });
  return demo;
}
