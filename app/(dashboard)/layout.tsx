import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { authOptions } from "@/lib/auth/next-auth";
import { DashboardShell } from "./_components/dashboard-shell";

// Every dashboard page needs a signed-in user; the /v1 routes check workspace membership on each call.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = (await getServerSession(authOptions())) as {
    userId?: string | null;
    user?: { email?: string | null; name?: string | null };
  } | null;
  if (!session?.userId) redirect("/sign-in");
  return (
    <DashboardShell email={session.user?.email ?? ""} name={session.user?.name ?? null}>
      {children}
    </DashboardShell>
  );
}
