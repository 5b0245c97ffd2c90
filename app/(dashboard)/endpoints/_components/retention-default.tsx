"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { FormAlert } from "@/app/(dashboard)/_components/form-alert";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { useFocusFirstInvalid } from "@/app/(dashboard)/_hooks/use-focus-first-invalid";
import { useCurrentWorkspace } from "@/app/(dashboard)/_hooks/use-workspace";
import { errorMessage } from "@/app/(dashboard)/_lib/form-errors";
import { useUpdateWorkspace, useWorkspaceSettings } from "../_hooks/use-workspace-settings";
import {
  describeRetention,
  retentionFormErrors,
  retentionFormValues,
  toRetentionPolicy,
  type RetentionField,
} from "../_lib/retention";
import { RetentionFields } from "./retention-fields";
import styles from "./endpoints.module.css";

/** The workspace's default retention, for endpoints without their own; owners change it. */
export function RetentionDefault() {
  const id = useId();
  const settings = useWorkspaceSettings();
  const isOwner = useCurrentWorkspace()?.role === "owner";
  const editButton = useRef<HTMLButtonElement>(null);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  function close(message: string | null) {
    setEditing(false);
    setNotice(message);
    requestAnimationFrame(() => editButton.current?.focus());
  }

  return (
    <section className={`${ui.card} ${ui.spaced}`} aria-labelledby={`${id}-title`}>
      <div className={styles.cardHeader}>
        <div>
          <h2 id={`${id}-title`} className={ui.sectionTitle}>
            Default retention
          </h2>
          <p className={ui.muted}>
            {settings.data
              ? `${describeRetention(settings.data.deliveryRetention)}, on endpoints without a retention of their own.`
              : settings.error
                ? `Could not load it: ${errorMessage(settings.error)}`
                : "Loading…"}
          </p>
        </div>
        {isOwner && settings.data && !editing ? (
          <button
            ref={editButton}
            type="button"
            className="button button-small"
            onClick={() => {
              setNotice(null);
              setEditing(true);
            }}
          >
            Change
          </button>
        ) : null}
      </div>
      <div role="status">{notice ? <p className={ui.success}>{notice}</p> : null}</div>
      {editing && settings.data ? (
        <RetentionDefaultForm current={settings.data.deliveryRetention} onDone={close} />
      ) : null}
    </section>
  );
}

function RetentionDefaultForm({
  current,
  onDone,
}: {
  current: Parameters<typeof retentionFormValues>[0];
  onDone: (message: string | null) => void;
}) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const update = useUpdateWorkspace();
  const [values, setValues] = useState(retentionFormValues(current));
  const [problems, setProblems] = useState<Partial<Record<RetentionField, string>>>({});
  const errors = retentionFormErrors(problems, update.error, "deliveryRetention");
  useFocusFirstInvalid(form, update.error ?? (Object.keys(problems).length > 0 ? problems : null));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (update.isPending) return;
    update.reset();
    const policy = toRetentionPolicy(values);
    if (!policy.ok) return setProblems(policy.fields);
    setProblems({});
    update.mutate(
      { deliveryRetention: policy.policy },
      { onSuccess: (answer) => onDone(`Saved. ${describeRetention(answer.data.workspace.deliveryRetention)}.`) },
    );
  }

  return (
    <form ref={form} className={`${ui.stack} ${styles.panel}`} onSubmit={submit}>
      <p className="hint">
        Deliveries older than this are deleted in the background, with their bodies. Ages count from receipt; both empty
        keeps everything.
      </p>
      <FormAlert message={errors.form} />
      <RetentionFields idPrefix={`${id}-days`} values={values} onChange={setValues} errors={errors.fields} />
      <div className={ui.row}>
        <button type="submit" className="button button-primary" aria-disabled={update.isPending}>
          {update.isPending ? "Saving…" : "Save default"}
        </button>
        <button type="button" className="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
