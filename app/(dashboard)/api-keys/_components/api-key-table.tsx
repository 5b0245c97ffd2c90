"use client";

import { useState } from "react";
import { ConfirmDialog } from "@/app/(dashboard)/_components/modal-dialog";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { formatDate, formatDateTime } from "@/app/(dashboard)/_lib/display-format";
import { errorMessage } from "@/app/(dashboard)/_lib/form-errors";
import { useRevokeApiKey, type ApiKey } from "../_hooks/use-api-keys";
import { activeFirst, keyPrefix } from "../_lib/key-display";
import styles from "./api-keys.module.css";

export function ApiKeyTable({ keys, onRevoked }: { keys: ApiKey[]; onRevoked: (message: string) => void }) {
  const revoke = useRevokeApiKey();
  const [target, setTarget] = useState<ApiKey | null>(null);

  function close() {
    setTarget(null);
    revoke.reset();
  }

  function confirm() {
    if (!target) return;
    revoke.mutate(target.id, {
      onSuccess: () => {
        close();
        onRevoked(`Revoked “${target.name}”. Requests with it now get 401.`);
      },
    });
  }

  return (
    <>
      <table className={`${ui.table} ${styles.keys}`}>
        <caption className="visually-hidden">API keys of this workspace</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Mode</th>
            <th scope="col">Key</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {activeFirst(keys).map((key) => (
            <tr key={key.id} className={key.revokedAt ? styles.revoked : undefined}>
              <th scope="row">{key.name}</th>
              <td data-label="Mode">
                <span className={`${ui.badge} ${key.mode === "live" ? ui.badgeLive : ui.badgeTest}`}>
                  {key.mode === "live" ? "Live" : "Test"}
                </span>
              </td>
              <td data-label="Key" className={ui.mono}>
                {keyPrefix(key.start)}
              </td>
              <td data-label="Scopes" className={ui.mono}>
                {key.scopes.join(" ")}
              </td>
              <td data-label="Created">{formatDate(key.createdAt)}</td>
              <td data-label="Last used">{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : "Never"}</td>
              <td data-label="Status">
                {key.revokedAt ? (
                  <span className={`${ui.badge} ${ui.badgeRevoked}`}>Revoked {formatDate(key.revokedAt)}</span>
                ) : (
                  <span className={`${ui.badge} ${ui.badgeOn}`}>Active</span>
                )}
              </td>
              <td>
                {key.revokedAt ? null : (
                  <button
                    type="button"
                    className={`button button-small ${ui.dangerOutline}`}
                    onClick={() => setTarget(key)}
                    aria-label={`Revoke ${key.name}`}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ConfirmDialog
        open={target !== null}
        title={target ? `Revoke “${target.name}”?` : ""}
        confirmLabel="Revoke key"
        pendingLabel="Revoking…"
        pending={revoke.isPending}
        error={revoke.error ? errorMessage(revoke.error) : null}
        onConfirm={confirm}
        onCancel={close}
      >
        {target ? (
          <p>
            Every request made with <code>{keyPrefix(target.start)}</code> gets 401 from the moment you confirm.
            Anything still using it stops working. This cannot be undone.
          </p>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
