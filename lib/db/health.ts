import { ApiError } from "@/lib/errors";
import { db } from "./client";

const HEALTH_TIMEOUT_MS = 2_000;

/** Throws `service_unavailable` unless the database answers a trivial query within two seconds. */
export async function checkDatabase(): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), HEALTH_TIMEOUT_MS);
  });
  try {
    await Promise.race([db().$queryRaw`SELECT 1`, timeout]);
  } catch {
    throw new ApiError("service_unavailable", "The database is not answering.", { headers: { "Retry-After": "1" } });
  } finally {
    clearTimeout(timer);
  }
}
