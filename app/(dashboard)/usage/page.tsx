import type { Metadata } from "next";
import { UsageView } from "./_components/usage-view";

export const metadata: Metadata = { title: "Usage and balance" };

// /usage: balances, spend per day, calls per operation and the latest ledger entries.
export default function UsagePage() {
  return <UsageView />;
}
