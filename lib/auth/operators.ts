import { db } from "@/lib/db/client";
import { normalizeEmail } from "./users";

/*
 * Operators run the server. These are the only queries that read across workspaces, and only operator-only
 * operations (lib/contracts/operator.ts) call them.
 */

export async function isOperator(userId: string): Promise<boolean> {
  return (await db().user.count({ where: { id: userId, isOperator: true } })) === 1;
}

/** Makes the user with this email an operator (or not); false when there is no such user. */
export async function setOperator(options: { email: string; operator: boolean }): Promise<boolean> {
  const { count } = await db().user.updateMany({
    where: { email: normalizeEmail(options.email) },
    data: { isOperator: options.operator },
  });
  return count === 1;
}

const MAX_LISTED = 100;

/** Workspaces by name (at most 100), narrowed by `q` in the name, the id or an owner's email; with balances. */
export async function listAllWorkspaces(options: { q?: string; workspaceId?: string }) {
  const q = options.q?.trim();
  const workspaces = await db().workspace.findMany({
    where: {
      ...(options.workspaceId ? { id: options.workspaceId } : {}),
      ...(q
        ? {
            OR: [
              { name: { contains: q, mode: "insensitive" } },
              { id: q },
              { members: { some: { role: "owner", user: { email: { contains: q.toLowerCase() } } } } },
            ],
          }
        : {}),
    },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: MAX_LISTED,
    select: {
      id: true,
      name: true,
      createdAt: true,
      subscriptionAllowanceCents: true,
      subscriptionRemainingCents: true,
      purchasedBalanceCents: true,
      members: { select: { role: true, user: { select: { email: true } } }, orderBy: { createdAt: "asc" } },
    },
  });
  return workspaces.map(({ members, ...workspace }) => ({
    ...workspace,
    owners: members.filter((member) => member.role === "owner").map((member) => member.user.email),
    memberCount: members.length,
  }));
}
