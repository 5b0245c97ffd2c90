import { route } from "@/lib/api/route";
import { getHealthContract } from "@/lib/contracts/system";
import { checkDatabase } from "@/lib/db/health";

export const dynamic = "force-dynamic";

// GET /healthz — 200 when the database answers, 503 when it does not.
export const GET = route(getHealthContract, async () => {
  await checkDatabase();
  return { status: "ok" as const, database: "ok" as const };
});
