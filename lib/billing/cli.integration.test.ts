import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { isOperator } from "@/lib/auth/operators";
import { createAccount } from "@/lib/auth/users";
import { createWorkspace } from "@/lib/auth/workspaces";
import { db } from "@/lib/db/client";

const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

/** Runs `npm run billing -- …` as an operator would: its own process, on this file's database. */
async function billing(...args: string[]) {
  try {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "lib/billing/cli.ts", ...args], {
      cwd: ROOT,
      env: process.env,
    });
    return { code: 0, output: stdout.trim() };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: `${failed.stdout}${failed.stderr}`.trim() };
  }
}

describe("the billing CLI", () => {
  it("credits, sets the allowance and reports balances, each audited in the ledger", async () => {
    const workspace = await createWorkspace({ name: "Operated" });

    expect(await billing("credit", workspace.id, "250", "Invoice", "7")).toEqual({
      code: 0,
      output: JSON.stringify({ workspaceId: workspace.id, subscriptionRemainingCents: 0, purchasedBalanceCents: 250 }),
    });
    expect((await billing("allowance", workspace.id, "400")).code).toBe(0);
    const balance = await billing("balance", workspace.id);
    expect(JSON.parse(balance.output)).toEqual({
      workspaceId: workspace.id,
      subscriptionRemainingCents: 400,
      purchasedBalanceCents: 250,
    });

    const entries = await db().ledgerEntry.findMany({
      where: { workspaceId: workspace.id },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    expect(entries.map((entry) => [entry.kind, entry.note])).toEqual([
      ["credit", "Invoice 7"],
      ["allowance", "Operator set allowance"],
    ]);
  });

  it("refuses bad input with a usage message and a non-zero exit, changing nothing", async () => {
    const workspace = await createWorkspace({ name: "Careful" });
    for (const args of [
      ["credit", workspace.id, "ten"],
      ["credit", workspace.id, "-5"],
      ["refund", workspace.id, "5"],
      ["credit"],
      ["credit", "ws_missing", "5"],
    ]) {
      const result = await billing(...args);
      expect(result.code, args.join(" ")).not.toBe(0);
      expect(result.output.length).toBeGreaterThan(0);
    }
    expect(await db().ledgerEntry.count({ where: { workspaceId: workspace.id } })).toBe(0);
  });

  it("makes a user an operator by email, and with `off` no longer; anything else changes nothing", async () => {
    const user = await createAccount({
      email: "ops@example.com",
      password: "correct horse battery",
      workspaceName: "O",
    });
    const bystander = await createAccount({
      email: "bystander@example.com",
      password: "correct horse battery",
      workspaceName: "B",
    });

    expect(await billing("operator", "OPS@example.com")).toEqual({
      code: 0,
      output: JSON.stringify({ email: "OPS@example.com", operator: true }),
    });
    expect(await isOperator(user.userId)).toBe(true);
    expect(await isOperator(bystander.userId)).toBe(false);

    expect(JSON.parse((await billing("operator", "ops@example.com", "off")).output)).toEqual({
      email: "ops@example.com",
      operator: false,
    });
    expect(await isOperator(user.userId)).toBe(false);

    // A word other than `off` is a mistake, not a yes: refused, nothing granted.
    for (const args of [
      ["operator", "ops@example.com", "false"],
      ["operator", "ops@example.com", "on", "please"],
      ["operator", "nobody@example.com"],
      ["operator"],
    ]) {
      const result = await billing(...args);
      expect(result.code, args.join(" ")).not.toBe(0);
      expect(result.output.length).toBeGreaterThan(0);
    }
    expect(await isOperator(user.userId)).toBe(false);
  });
});
