"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { FormAlert } from "@/app/(dashboard)/_components/form-alert";
import { ModalDialog } from "@/app/(dashboard)/_components/modal-dialog";
import { TextField } from "@/app/(dashboard)/_components/text-field";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { useFocusFirstInvalid } from "@/app/(dashboard)/_hooks/use-focus-first-invalid";
import { formatCents } from "@/app/(dashboard)/_lib/display-format";
import { formErrors } from "@/app/(dashboard)/_lib/form-errors";
import { useCreditWorkspace, type OperatorWorkspace } from "../_hooks/use-operator";
import { parseDollars } from "../_lib/money";

/** The form inside the dialog; mounted per opening, so every opening starts empty. */
function AddFundsForm({
  workspace,
  formId,
  credit,
  onDone,
}: {
  workspace: OperatorWorkspace;
  formId: string;
  credit: ReturnType<typeof useCreditWorkspace>;
  onDone: (credited: OperatorWorkspace, amountCents: number) => void;
}) {
  const form = useRef<HTMLFormElement>(null);
  const [amount, setAmount] = useState("");
  const [note, setNote] = useState("");
  // A typed amount that is not money is refused here, in words; the API checks the rest (its limit, the note).
  const [amountError, setAmountError] = useState<string | null>(null);
  const errors = credit.error ? formErrors(credit.error, ["amountCents", "note"]) : { form: null, fields: {} };
  useFocusFirstInvalid(form, amountError ?? credit.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (credit.isPending) return;
    const parsed = parseDollars(amount);
    if ("error" in parsed) {
      credit.reset();
      return setAmountError(parsed.error);
    }
    setAmountError(null);
    credit.mutate(
      { workspaceId: workspace.id, amountCents: parsed.cents, note: note.trim() || undefined },
      { onSuccess: (credited) => onDone(credited, parsed.cents) },
    );
  }

  return (
    <form id={formId} ref={form} className={ui.stack} onSubmit={submit} noValidate>
      <p>
        Adds to the purchased balance of <strong>{workspace.name}</strong>, now{" "}
        {formatCents(workspace.purchasedBalanceCents)}. The ledger records it with your email.
      </p>
      <FormAlert message={errors.form} />
      <TextField
        id={`${formId}-amount`}
        label="Amount in dollars"
        value={amount}
        onChange={setAmount}
        required
        maxLength={20}
        autoFocus
        hint="Dollars and cents, e.g. 12.34."
        error={amountError ?? errors.fields.amountCents}
      />
      <TextField
        id={`${formId}-note`}
        label="Note"
        value={note}
        onChange={setNote}
        optional
        maxLength={200}
        hint="Why, for the ledger: e.g. “Invoice 2026-014 paid”."
        error={errors.fields.note}
      />
    </form>
  );
}

/** "Add funds" for one workspace; after the credit it shows the new balance until closed. */
export function AddFundsDialog({
  workspace,
  onClose,
}: {
  workspace: OperatorWorkspace | null;
  onClose: (message: string | null) => void;
}) {
  const formId = useId();
  // Here rather than in the form: the dialog's own submit button shows that it is busy.
  const credit = useCreditWorkspace();
  const [done, setDone] = useState<{ credited: OperatorWorkspace; amountCents: number } | null>(null);
  const message = done
    ? `Added ${formatCents(done.amountCents)} to ${done.credited.name}. Its purchased balance is now ${formatCents(done.credited.purchasedBalanceCents)}.`
    : null;

  function close() {
    setDone(null);
    credit.reset();
    onClose(message);
  }

  return (
    <ModalDialog
      open={workspace !== null}
      title={workspace ? `Add funds to ${workspace.name}` : ""}
      onClose={close}
      actions={
        done ? (
          <button type="button" className="button button-primary" onClick={close}>
            Done
          </button>
        ) : (
          <>
            <button type="button" className="button" onClick={close}>
              Cancel
            </button>
            <button type="submit" form={formId} className="button button-primary" aria-disabled={credit.isPending}>
              {credit.isPending ? "Adding…" : "Add funds"}
            </button>
          </>
        )
      }
    >
      {done ? (
        <p role="status" className={ui.success}>
          {message}
        </p>
      ) : workspace ? (
        <AddFundsForm
          workspace={workspace}
          formId={formId}
          credit={credit}
          onDone={(credited, amountCents) => setDone({ credited, amountCents })}
        />
      ) : null}
    </ModalDialog>
  );
}
