"use client";

import Link from "next/link";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { useCurrentUser } from "@/app/(dashboard)/_hooks/use-current-user";
import styles from "./usage.module.css";

/**
 * Where funds come from on a self-hosted server: its operator (there is no purchase page). Live calls that the
 * balances cannot cover answer 402; test keys never need funds.
 */
export function FundsNote() {
  const operator = useCurrentUser().data?.user.operator === true;
  return (
    <p className={`${ui.muted} ${styles.fundsNote}`}>
      Live-key calls are paid from these balances; when neither can cover a call, it is refused with{" "}
      <code>402 Payment Required</code>. Test keys cost nothing.{" "}
      {operator ? (
        <>
          You operate this server: add funds to any workspace on the <Link href="/operator">Operator</Link> page.
        </>
      ) : (
        "Ask an operator of this server to add funds."
      )}
    </p>
  );
}
