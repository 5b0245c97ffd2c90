"use client";

import { useId } from "react";
import { CopyButton } from "@/app/(dashboard)/_components/copy-button";
import { ModalDialog } from "@/app/(dashboard)/_components/modal-dialog";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import styles from "./endpoints.module.css";

/** A new destination's signing secret, the only time it is shown, and how a receiver checks what it signs. */
export function DestinationSecretDialog({
  created,
  onClose,
}: {
  created: { url: string; signingSecret: string } | null;
  onClose: () => void;
}) {
  const id = useId();
  return (
    <ModalDialog
      open={created !== null}
      title="The destination's signing secret"
      onClose={onClose}
      actions={
        <button type="button" className="button button-primary" onClick={onClose}>
          I have stored the secret
        </button>
      }
    >
      {created ? (
        <>
          <p className={ui.warning}>
            <strong>Copy it now: you will not see it again.</strong> If it is lost, delete the destination and add it
            again.
          </p>
          <p className={`${ui.muted} ${ui.mono}`}>{created.url}</p>
          <div className="field">
            <span id={`${id}-label`} className={ui.label}>
              Signing secret
            </span>
            <code className={ui.secret} aria-labelledby={`${id}-label`}>
              {created.signingSecret}
            </code>
            <div>
              <CopyButton
                text={created.signingSecret}
                label="Copy the signing secret"
                className="button button-primary"
              />
            </div>
          </div>
          <p>Every forward is signed the Standard Webhooks way. To check that one came from Signalbox:</p>
          <ol className={styles.verify}>
            <li>
              Read the <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code>{" "}
              headers; refuse a timestamp more than a few minutes old.
            </li>
            <li>
              Compute HMAC-SHA256 over <code>id.timestamp.body</code> (the exact body bytes) with the secret&apos;s
              bytes (the base64 after <code>whsec_</code>), and compare it, base64-encoded, with each <code>v1,…</code>{" "}
              signature.
            </li>
            <li>
              Or use a Standard Webhooks library: <code>new Webhook(secret).verify(body, headers)</code>.
            </li>
          </ol>
          <p className="hint">
            A replayed delivery keeps its <code>webhook-id</code>: use it to ignore one you already handled.
          </p>
        </>
      ) : null}
    </ModalDialog>
  );
}
