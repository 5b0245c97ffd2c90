"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { FormAlert } from "@/app/(dashboard)/_components/form-alert";
import { TextField } from "@/app/(dashboard)/_components/text-field";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { useFocusFirstInvalid } from "@/app/(dashboard)/_hooks/use-focus-first-invalid";
import { formErrors } from "@/app/(dashboard)/_lib/form-errors";
import { useUpdateEndpoint, type WebhookEndpoint } from "../_hooks/use-endpoints";
import { describeSigning } from "../_lib/signing-schemes";
import { SIGNING_FIELDS, SigningFields, type SigningValues } from "./signing-fields";

/** Rename the endpoint or change its description. */
export function EditDetailsForm({
  endpoint,
  onDone,
}: {
  endpoint: WebhookEndpoint;
  onDone: (message: string | null) => void;
}) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const update = useUpdateEndpoint(endpoint.id);
  const [name, setName] = useState(endpoint.name);
  const [description, setDescription] = useState(endpoint.description ?? "");
  const errors = update.error ? formErrors(update.error, ["name", "description"]) : { form: null, fields: {} };
  useFocusFirstInvalid(form, update.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (update.isPending) return;
    // An emptied description is removed rather than stored as "".
    update.mutate(
      { name, description: description.trim() ? description : null },
      { onSuccess: () => onDone("Saved the name and description.") },
    );
  }

  return (
    <form ref={form} className={ui.stack} onSubmit={submit}>
      <FormAlert message={errors.form} />
      <TextField
        id={`${id}-name`}
        label="Name"
        value={name}
        onChange={setName}
        required
        maxLength={100}
        autoFocus
        error={errors.fields.name}
      />
      <TextField
        id={`${id}-description`}
        label="Description"
        optional
        multiline
        value={description}
        onChange={setDescription}
        maxLength={500}
        error={errors.fields.description}
      />
      <div className={ui.row}>
        <button type="submit" className="button button-primary" aria-disabled={update.isPending}>
          {update.isPending ? "Saving…" : "Save"}
        </button>
        <button type="button" className="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Set, change or remove the signature check. The stored secret is never sent back, so changing needs it again. */
export function SigningSettingsForm({
  endpoint,
  onDone,
}: {
  endpoint: WebhookEndpoint;
  onDone: (message: string | null) => void;
}) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const update = useUpdateEndpoint(endpoint.id);
  const [values, setValues] = useState<SigningValues>({
    scheme: endpoint.signing?.scheme ?? "standard-webhooks",
    secret: "",
    rejectInvalid: endpoint.signing?.rejectInvalid ?? false,
  });
  const errors = update.error ? formErrors(update.error, SIGNING_FIELDS) : { form: null, fields: {} };
  useFocusFirstInvalid(form, update.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (update.isPending) return;
    update.mutate(
      { signing: values },
      { onSuccess: () => onDone("Saved the signature settings. New deliveries are checked with them.") },
    );
  }

  function remove() {
    if (update.isPending) return;
    update.mutate({ signing: null }, { onSuccess: () => onDone("Signatures are no longer checked.") });
  }

  return (
    <form ref={form} className={ui.stack} onSubmit={submit}>
      <p className="hint">Now: {describeSigning(endpoint.signing)}.</p>
      <FormAlert message={errors.form} />
      <SigningFields
        idPrefix={`${id}-signing`}
        values={values}
        onChange={setValues}
        errors={errors.fields}
        secretHint={
          endpoint.signing
            ? "Enter it again to change any of these settings: the stored one is never shown."
            : undefined
        }
      />
      <div className={ui.row}>
        <button type="submit" className="button button-primary" aria-disabled={update.isPending}>
          {update.isPending ? "Saving…" : endpoint.signing ? "Save signature settings" : "Check signatures"}
        </button>
        {endpoint.signing ? (
          <button
            type="button"
            className={`button ${ui.dangerOutline}`}
            onClick={remove}
            aria-disabled={update.isPending}
          >
            Stop checking signatures
          </button>
        ) : null}
        <button type="button" className="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
