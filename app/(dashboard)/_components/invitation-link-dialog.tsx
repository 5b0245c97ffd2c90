"use client";

import { useId } from "react";
import type { z } from "zod";
import type { createdInvitationSchema } from "@/lib/contracts/members";
import { formatDateTime } from "../_lib/display-format";
import { CopyButton } from "./copy-button";
import { ModalDialog } from "./modal-dialog";
import ui from "./ui.module.css";

export type CreatedInvitation = z.output<typeof createdInvitationSchema>;

/** Shows a new invitation's link, the only time it is ever shown (the server keeps only a hash of its token). */
export function InvitationLinkDialog({ created, onClose }: { created: CreatedInvitation | null; onClose: () => void }) {
  const id = useId();
  const invitation = created?.invitation;
  return (
    <ModalDialog
      open={created !== null}
      title={invitation ? `Invitation link for ${invitation.email}` : ""}
      onClose={onClose}
      actions={
        <button type="button" className="button button-primary" onClick={onClose}>
          Done
        </button>
      }
    >
      {created && invitation ? (
        <>
          <p className={ui.warning}>
            <strong>Copy it now: you will not see it again.</strong> Signalbox sends no email: send the link to{" "}
            {invitation.email} yourself.
          </p>
          <div className="field">
            <span id={`${id}-label`} className={ui.label}>
              Invitation link
            </span>
            <code className={ui.secret} aria-labelledby={`${id}-label`}>
              {created.url}
            </code>
            <div>
              <CopyButton text={created.url} label="Copy the invitation link" className="button button-primary" />
            </div>
          </div>
          <p className="hint">
            It works once, for {invitation.email} only, until {formatDateTime(invitation.expiresAt)}. If it is lost,
            invite them again: the earlier link then stops working.
          </p>
        </>
      ) : null}
    </ModalDialog>
  );
}
