import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { authOptions } from "@/lib/auth/next-auth";
import { listUserWorkspaces } from "@/lib/auth/users";
import { DashboardShell } from "./_components/dashboard-shell";
import { NoWorkspace } from "./_components/no-workspace";

// Every dashboard page needs a signed-in user; the /v1 routes check workspace membership on each call.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = (await getServerSession(authOptions())) as {
    userId?: string | null;
    user?: { email?: string | null; name?: string | null };
  } | null;
  if (!session?.userId) redirect("/sign-in");
  if ((await listUserWorkspaces(session.userId)).length === 0) return <NoWorkspace email={session.user?.email ?? ""} />;
  return (
    <DashboardShell email={session.user?.email ?? ""} name={session.user?.name ?? null}>
      {children}
    </DashboardShell>
  );
}
