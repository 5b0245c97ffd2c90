"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import ui from "./ui.module.css";

export interface ModalDialogProps {
  open: boolean;
  title: string;
  /** Called when the dialog closes itself (Escape) so the owner can update its state. */
  onClose: () => void;
  children: ReactNode;
  /** Buttons at the bottom; put the safe choice first, it gets the focus. */
  actions: ReactNode;
}

/**
 * A native modal `<dialog>` (`showModal()`): the browser traps focus inside, makes the page behind inert, closes on
 * Escape and gives the focus back to the element that opened it.
 */
export function ModalDialog({ open, title, onClose, children, actions }: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog ref={ref} className={ui.dialog} aria-labelledby={titleId} aria-describedby={bodyId} onClose={onClose}>
      {open ? (
        <>
          <h2 id={titleId} className={ui.dialogTitle}>
            {title}
          </h2>
          <div id={bodyId} className={ui.dialogBody}>
            {children}
          </div>
          <div className={ui.dialogActions}>{actions}</div>
        </>
      ) : null}
    </dialog>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** Shown when the confirmed action failed; the dialog stays open so the user can retry or cancel. */
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before a destructive action; "Cancel" comes first and has the focus. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  pendingLabel,
  pending,
  error,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <ModalDialog
      open={open}
      title={title}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
          <button
            type="button"
            className={`button ${ui.danger}`}
            onClick={() => !pending && onConfirm()}
            aria-disabled={pending}
          >
            {pending ? pendingLabel : confirmLabel}
          </button>
        </>
      }
    >
      {children}
      {error ? (
        <p role="alert" className={ui.alert}>
          {error}
        </p>
      ) : null}
    </ModalDialog>
  );
}
