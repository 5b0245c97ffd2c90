import type { Metadata } from "next";
import { OperatorView } from "./_components/operator-view";

export const metadata: Metadata = { title: "Operator" };

// /operator: for the server's operators: every workspace with its balances, "Add funds", and sign-up invitations.
export default function OperatorPage() {
  return <OperatorView />;
}
