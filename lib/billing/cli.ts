/**
 * Operator commands for workspace money (`npm run billing -- <command>`), each written to the ledger:
 *   balance   <workspaceId>
 *   credit    <workspaceId> <cents> [note]   add to the purchased balance
 *   allowance <workspaceId> <cents> [note]   set the monthly subscription allowance (and this period's remainder)
 *   operator  <email> [off]                  make a user an operator of this server (or, with "off", no longer)
 * Uses DATABASE_URL, else the embedded database under DATA_DIR (the running app's, or started for the command).
 */
import process from "node:process";
import { disconnectDb } from "@/lib/db/client";
import { openDatabaseServer } from "@/lib/db/database";
import { runningEmbeddedUrl } from "@/lib/db/embedded-postgres";
import { parseEnv } from "@/lib/env";
import { setOperator } from "@/lib/auth/operators";
import { creditWorkspace, getBalances, setSubscriptionAllowance, type Balances } from "./balances";

const USAGE =
  "usage: npm run billing -- balance <workspaceId> | credit <workspaceId> <cents> [note] | allowance <workspaceId> <cents> [note] | operator <email> [off]";

function wholeCents(text: string | undefined): number {
  const cents = Number(text);
  if (!text || !Number.isInteger(cents)) throw new Error(`"${text ?? ""}" is not a whole number of cents. ${USAGE}`);
  return cents;
}

async function run(
  command: string | undefined,
  workspaceId: string | undefined,
  amount: string | undefined,
  note: string | undefined,
): Promise<Record<string, unknown>> {
  if (!workspaceId) throw new Error(USAGE);
  if (command === "operator") {
    const email = workspaceId;
    // Only "off" revokes; anything else after the email ("false", "no", a typo) is refused rather than granting.
    if ((amount !== undefined && amount !== "off") || note !== undefined) throw new Error(USAGE);
    const operator = amount !== "off";
    if (!(await setOperator({ email, operator }))) throw new Error(`No user has the email ${email}.`);
    return { email, operator };
  }
  const balances = await runMoney(command, workspaceId, amount, note);
  return { workspaceId, ...balances };
}

async function runMoney(
  command: string | undefined,
  workspaceId: string,
  amount: string | undefined,
  note: string | undefined,
): Promise<Balances> {
  if (command === "balance") return getBalances(workspaceId);
  if (command === "credit")
    return creditWorkspace({ workspaceId, cents: wholeCents(amount), note: note ?? "Operator credit" });
  if (command === "allowance")
    return setSubscriptionAllowance({
      workspaceId,
      allowanceCents: wholeCents(amount),
      note: note ?? "Operator set allowance",
    });
  throw new Error(USAGE);
}

async function main(): Promise<void> {
  const [command, workspaceId, amount, ...noteWords] = process.argv.slice(2);
  const env = parseEnv(process.env);
  const running = env.DATABASE_URL ? null : await runningEmbeddedUrl(env.DATA_DIR);
  const database = running
    ? { url: running, stop: async () => {} }
    : await openDatabaseServer({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  process.env.DATABASE_URL = database.url;
  try {
    console.info(JSON.stringify(await run(command, workspaceId, amount, noteWords.join(" ") || undefined)));
  } finally {
    await disconnectDb();
    await database.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
