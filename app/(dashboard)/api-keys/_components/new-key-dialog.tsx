"use client";

import { useId } from "react";
import { CopyButton } from "@/app/(dashboard)/_components/copy-button";
import { ModalDialog } from "@/app/(dashboard)/_components/modal-dialog";
import ui from "@/app/(dashboard)/_components/ui.module.css";

/** Shows a new key's secret, the only time it is ever shown. */
export function NewKeyDialog({
  created,
  onClose,
}: {
  created: { name: string; key: string; mode: "live" | "test" } | null;
  onClose: () => void;
}) {
  const id = useId();
  return (
    <ModalDialog
      open={created !== null}
      title={created ? `Your new ${created.mode} key “${created.name}”` : ""}
      onClose={onClose}
      actions={
        <button type="button" className="button button-primary" onClick={onClose}>
          I have stored the key
        </button>
      }
    >
      {created ? (
        <>
          <p className={ui.warning}>
            <strong>Copy it now: you will not see it again.</strong> Signalbox keeps only a hash of it. If it is lost,
            create a new key and revoke this one.
          </p>
          <div className="field">
            <span id={`${id}-label`} className={ui.label}>
              API key
            </span>
            <code id={`${id}-key`} className={ui.secret} aria-labelledby={`${id}-label`}>
              {created.key}
            </code>
            <div>
              <CopyButton text={created.key} label="Copy the API key" className="button button-primary" />
            </div>
          </div>
          <p className="hint">
            Send it with every request as <code>Authorization: Bearer {created.key.slice(0, 9)}…</code>
          </p>
        </>
      ) : null}
    </ModalDialog>
  );
}
