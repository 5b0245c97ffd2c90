"use client";

import ui from "@/app/(dashboard)/_components/ui.module.css";
import { formatCents, formatCount } from "@/app/(dashboard)/_lib/display-format";
import type { OperatorWorkspace } from "../_hooks/use-operator";
import styles from "./operator.module.css";

/** Every listed workspace with its people and balances, each with "Add funds". */
export function WorkspacesTable({
  workspaces,
  onAddFunds,
}: {
  workspaces: OperatorWorkspace[];
  onAddFunds: (workspace: OperatorWorkspace) => void;
}) {
  return (
    <div className={ui.tableWrap} role="region" aria-labelledby="workspaces-title" tabIndex={0}>
      <table className={ui.table}>
        <thead>
          <tr>
            <th scope="col">Workspace</th>
            <th scope="col">Owners</th>
            <th scope="col" className={ui.num}>
              Members
            </th>
            <th scope="col" className={ui.num}>
              Allowance
            </th>
            <th scope="col" className={ui.num}>
              Remaining
            </th>
            <th scope="col" className={ui.num}>
              Purchased
            </th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {workspaces.map((workspace) => (
            <tr key={workspace.id}>
              <th scope="row">
                {workspace.name} <span className={`${styles.detail} ${ui.mono}`}>{workspace.id}</span>
              </th>
              <td className={styles.owners}>{workspace.owners.length > 0 ? workspace.owners.join(", ") : "—"}</td>
              <td className={ui.num}>{formatCount(workspace.memberCount)}</td>
              <td className={ui.num}>{formatCents(workspace.subscriptionAllowanceCents)}</td>
              <td className={ui.num}>{formatCents(workspace.subscriptionRemainingCents)}</td>
              <td className={ui.num}>{formatCents(workspace.purchasedBalanceCents)}</td>
              <td>
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => onAddFunds(workspace)}
                  aria-label={`Add funds to ${workspace.name}`}
                >
                  Add funds
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
