"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { FormAlert } from "@/app/(dashboard)/_components/form-alert";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { useFocusFirstInvalid } from "@/app/(dashboard)/_hooks/use-focus-first-invalid";
import { useUpdateEndpoint, type WebhookEndpoint } from "../_hooks/use-endpoints";
import { useWorkspaceSettings } from "../_hooks/use-workspace-settings";
import {
  describeRetention,
  retentionFormErrors,
  retentionFormValues,
  toRetentionPolicy,
  type RetentionField,
} from "../_lib/retention";
import { RetentionFields } from "./retention-fields";

/** How long this endpoint's deliveries are kept: the workspace default, or a policy of its own. */
export function EndpointRetentionForm({
  endpoint,
  onDone,
}: {
  endpoint: WebhookEndpoint;
  onDone: (message: string | null) => void;
}) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const update = useUpdateEndpoint(endpoint.id);
  const workspace = useWorkspaceSettings();
  const [own, setOwn] = useState(endpoint.retention !== null);
  const [values, setValues] = useState(retentionFormValues(endpoint.retention));
  const [problems, setProblems] = useState<Partial<Record<RetentionField, string>>>({});
  const errors = retentionFormErrors(problems, update.error, "retention");
  useFocusFirstInvalid(form, update.error ?? (Object.keys(problems).length > 0 ? problems : null));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (update.isPending) return;
    update.reset();
    const policy = own ? toRetentionPolicy(values) : { ok: true as const, policy: null };
    if (!policy.ok) return setProblems(policy.fields);
    setProblems({});
    update.mutate(
      { retention: policy.policy },
      { onSuccess: () => onDone("Saved how long this endpoint's deliveries are kept.") },
    );
  }

  const defaultLine = workspace.data ? describeRetention(workspace.data.deliveryRetention).toLowerCase() : null;

  return (
    <form ref={form} className={ui.stack} onSubmit={submit}>
      <p className="hint">
        Deliveries older than this are deleted in the background, with their bodies. Ages count from receipt.
      </p>
      <FormAlert message={errors.form} />
      <div className="field">
        <label htmlFor={`${id}-kind`}>Keep this endpoint&apos;s deliveries</label>
        <select
          id={`${id}-kind`}
          className={`select ${ui.fill}`}
          value={own ? "own" : "workspace"}
          onChange={(event) => setOwn(event.target.value === "own")}
        >
          <option value="workspace">As the workspace default says{defaultLine ? ` (${defaultLine})` : ""}</option>
          <option value="own">For a time of its own</option>
        </select>
      </div>
      {own ? (
        <RetentionFields idPrefix={`${id}-days`} values={values} onChange={setValues} errors={errors.fields} />
      ) : null}
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
