"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { FormAlert } from "@/app/(dashboard)/_components/form-alert";
import type { CreatedInvitation } from "@/app/(dashboard)/_components/invitation-link-dialog";
import { TextField } from "@/app/(dashboard)/_components/text-field";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { useFocusFirstInvalid } from "@/app/(dashboard)/_hooks/use-focus-first-invalid";
import { formErrors } from "@/app/(dashboard)/_lib/form-errors";
import { useCreateInvitation } from "../_hooks/use-members";
import { ROLE_DESCRIPTIONS, ROLE_LABELS, type Role } from "../_lib/roles";

/** An owner invites someone by email; the link comes back once, for the dialog. */
export function InviteForm({ onCreated }: { onCreated: (created: CreatedInvitation) => void }) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const create = useCreateInvitation();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const errors = create.error ? formErrors(create.error, ["email", "role"]) : { form: null, fields: {} };
  useFocusFirstInvalid(form, create.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (create.isPending) return;
    create.mutate(
      { email, role },
      {
        onSuccess: (created) => {
          onCreated(created);
          setEmail("");
          // The link is handed to the dialog; do not keep a copy in the mutation cache.
          create.reset();
        },
      },
    );
  }

  return (
    <form ref={form} className={ui.stack} onSubmit={submit}>
      <FormAlert message={errors.form} />
      <div className={ui.twoColumns}>
        <TextField
          id={`${id}-email`}
          label="Email"
          value={email}
          onChange={setEmail}
          required
          maxLength={254}
          hint="The link works for this address only."
          error={errors.fields.email}
        />
        <div className="field">
          <label htmlFor={`${id}-role`}>Role</label>
          <select
            id={`${id}-role`}
            className="select"
            value={role}
            onChange={(event) => setRole(event.target.value as Role)}
            aria-invalid={errors.fields.role ? true : undefined}
            aria-describedby={`${id}-role-hint${errors.fields.role ? ` ${id}-role-error` : ""}`}
          >
            {(["member", "owner"] as const).map((value) => (
              <option key={value} value={value}>
                {ROLE_LABELS[value]}
              </option>
            ))}
          </select>
          <p id={`${id}-role-hint`} className="hint">
            {ROLE_DESCRIPTIONS[role]}
          </p>
          {errors.fields.role ? (
            <p id={`${id}-role-error`} className="field-error">
              {errors.fields.role}
            </p>
          ) : null}
        </div>
      </div>
      <div className={ui.row}>
        <button type="submit" className="button button-primary" aria-disabled={create.isPending}>
          {create.isPending ? "Creating the link…" : "Create invitation link"}
        </button>
      </div>
    </form>
  );
}
