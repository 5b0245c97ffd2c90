"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { FormAlert } from "@/app/(dashboard)/_components/form-alert";
import { TextField } from "@/app/(dashboard)/_components/text-field";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { useFocusFirstInvalid } from "@/app/(dashboard)/_hooks/use-focus-first-invalid";
import { formErrors } from "@/app/(dashboard)/_lib/form-errors";
import { useCreateEndpoint, type WebhookEndpoint } from "../_hooks/use-endpoints";
import { SIGNING_FIELDS, SigningFields, type SigningValues } from "./signing-fields";

const FIELDS = ["name", "description", ...SIGNING_FIELDS];

export function CreateEndpointForm({
  onCreated,
  onCancel,
}: {
  onCreated: (endpoint: WebhookEndpoint) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const create = useCreateEndpoint();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [checkSignatures, setCheckSignatures] = useState(false);
  const [signing, setSigning] = useState<SigningValues>({
    scheme: "standard-webhooks",
    secret: "",
    rejectInvalid: false,
  });
  const errors = create.error ? formErrors(create.error, FIELDS) : { form: null, fields: {} };
  useFocusFirstInvalid(form, create.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (create.isPending) return;
    create.mutate(
      {
        name,
        description: description.trim() ? description : undefined,
        signing: checkSignatures ? signing : undefined,
      },
      { onSuccess: (answer) => onCreated(answer.data) },
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
        hint="Who sends to it, e.g. “Stripe production”."
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
      <fieldset className={ui.fieldset}>
        <legend>Signatures</legend>
        <label className={ui.check}>
          <input
            type="checkbox"
            checked={checkSignatures}
            onChange={(event) => setCheckSignatures(event.target.checked)}
          />
          <span>Check the sender&apos;s signatures</span>
        </label>
        {checkSignatures ? (
          <SigningFields idPrefix={`${id}-signing`} values={signing} onChange={setSigning} errors={errors.fields} />
        ) : null}
      </fieldset>
      <div className={ui.row}>
        <button type="submit" className="button button-primary" aria-disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create endpoint"}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
