"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { FormAlert } from "@/app/(dashboard)/_components/form-alert";
import { TextField } from "@/app/(dashboard)/_components/text-field";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { useFocusFirstInvalid } from "@/app/(dashboard)/_hooks/use-focus-first-invalid";
import { useCurrentWorkspace } from "@/app/(dashboard)/_hooks/use-workspace";
import { formErrors } from "@/app/(dashboard)/_lib/form-errors";
import { useCreateApiKey } from "../_hooks/use-api-keys";
import type { ApiKeyScope } from "@/lib/contracts/scopes";
import { LIVE_KEYS_FOR_OWNERS, MODE_DESCRIPTIONS, SCOPE_DESCRIPTIONS, scopesFor } from "../_lib/key-display";
import styles from "./api-keys.module.css";

export function CreateApiKeyForm({
  onCreated,
}: {
  onCreated: (created: { name: string; key: string; mode: "live" | "test" }) => void;
}) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const create = useCreateApiKey();
  const [name, setName] = useState("");
  const [mode, setMode] = useState<"live" | "test">("test");
  const [unticked, setUnticked] = useState<ReadonlySet<ApiKeyScope>>(new Set());
  // Members make test keys only (the API answers 403 for live, shown as the form's error if it happens anyway).
  const liveRefused = useCurrentWorkspace()?.role === "member";
  const chosen = liveRefused ? "test" : mode;
  const offered = scopesFor(chosen);
  const scopes = offered.filter((scope) => !unticked.has(scope));
  const errors = create.error ? formErrors(create.error, ["name", "mode", "scopes"]) : { form: null, fields: {} };

  function toggle(scope: ApiKeyScope) {
    setUnticked((current) => {
      const next = new Set(current);
      if (!next.delete(scope)) next.add(scope);
      return next;
    });
  }
  useFocusFirstInvalid(form, create.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (create.isPending) return;
    create.mutate(
      { name, mode: chosen, scopes },
      {
        onSuccess: (answer) => {
          onCreated({ name: answer.data.apiKey.name, mode: answer.data.apiKey.mode, key: answer.data.key });
          setName("");
          // The secret is handed to the dialog; do not keep a copy in the mutation cache.
          create.reset();
        },
      },
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
        hint="Where it will be used, e.g. “CRM sync (production)”."
        error={errors.fields.name}
      />
      <fieldset className={ui.fieldset} aria-describedby={errors.fields.mode ? `${id}-mode-error` : undefined}>
        <legend>Mode</legend>
        <div className={styles.modes}>
          {(["test", "live"] as const).map((value) => {
            const refused = value === "live" && liveRefused;
            return (
              <label key={value} className={`${styles.mode} ${refused ? styles.modeRefused : ""}`}>
                <input
                  type="radio"
                  name={`${id}-mode`}
                  value={value}
                  checked={chosen === value}
                  disabled={refused}
                  onChange={() => setMode(value)}
                />
                <span>
                  <strong>{value === "live" ? "Live" : "Test"}</strong>
                  <span>{refused ? LIVE_KEYS_FOR_OWNERS : MODE_DESCRIPTIONS[value]}</span>
                </span>
              </label>
            );
          })}
        </div>
        {errors.fields.mode ? (
          <p id={`${id}-mode-error`} className="field-error">
            {errors.fields.mode}
          </p>
        ) : null}
      </fieldset>
      <fieldset className={ui.fieldset} aria-describedby={errors.fields.scopes ? `${id}-scopes-error` : undefined}>
        <legend>Scopes</legend>
        <div className={styles.modes}>
          {offered.map((scope) => (
            <label key={scope} className={styles.mode}>
              <input type="checkbox" checked={!unticked.has(scope)} onChange={() => toggle(scope)} />
              <span>
                <strong className={ui.mono}>{scope}</strong>
                <span>{SCOPE_DESCRIPTIONS[scope]}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.fields.scopes ? (
          <p id={`${id}-scopes-error`} className="field-error">
            {errors.fields.scopes}
          </p>
        ) : null}
      </fieldset>
      <div className={ui.row}>
        <button type="submit" className="button button-primary" aria-disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create key"}
        </button>
      </div>
    </form>
  );
}
