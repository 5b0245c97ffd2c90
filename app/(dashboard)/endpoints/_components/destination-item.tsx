"use client";

import { useId, useRef, useState } from "react";
import { ConfirmDialog } from "@/app/(dashboard)/_components/modal-dialog";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import type { Destination } from "@/app/(dashboard)/_hooks/use-destination-list";
import { errorMessage } from "@/app/(dashboard)/_lib/form-errors";
import { useDeleteDestination, useUpdateDestination } from "../_hooks/use-destinations";
import { destinationFormValues } from "../_lib/destination-form";
import {
  describeFailure,
  describeLastSuccess,
  describeSeconds,
  destinationStateLabel,
} from "../_lib/destination-status";
import { DestinationForm } from "./destination-form";
import styles from "./endpoints.module.css";

const TONE_CLASSES = { on: ui.badgeOn, off: ui.badgeOff, gone: ui.badgeRevoked };

/** One destination in an endpoint card: where, how, whether it is failing, and its actions. */
export function DestinationItem({
  destination,
  onNotice,
  onRemoved,
}: {
  destination: Destination;
  onNotice: (message: string) => void;
  /** After the removal: the item (and the focused button in it) goes away with the list's refresh. */
  onRemoved: (message: string) => void;
}) {
  const id = useId();
  const editButton = useRef<HTMLButtonElement>(null);
  const [editing, setEditing] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const toggle = useUpdateDestination(destination.endpointId, destination.id);
  const edit = useUpdateDestination(destination.endpointId, destination.id);
  const remove = useDeleteDestination(destination.endpointId, destination.id);

  // While the switch's request runs, show the state asked for rather than flicking back.
  const enabled =
    toggle.isPending && toggle.variables.enabled !== undefined ? toggle.variables.enabled : destination.enabled;
  const state = destinationStateLabel(toggle.isPending ? { enabled, disabledReason: null } : destination);
  const failure = describeFailure(destination.health);
  const lastSuccess = describeLastSuccess(destination.health);

  function closeEdit(message: string | null) {
    setEditing(false);
    edit.reset();
    if (message) onNotice(message);
    editButton.current?.focus();
  }

  async function confirmDelete() {
    // mutateAsync: the refetch after a delete unmounts this item, and react-query skips an unmounted call's callbacks.
    const answer = await remove.mutateAsync().catch(() => null); // the error is shown from `remove.error`
    if (!answer) return;
    setConfirmingDelete(false);
    onRemoved(`Removed the destination ${destination.url}.`);
  }

  return (
    <article className={styles.destination} aria-labelledby={`${id}-url`}>
      <div className={styles.destinationLine}>
        <code id={`${id}-url`} className={styles.destinationUrl}>
          {destination.url}
        </code>
        <span className={`${ui.badge} ${TONE_CLASSES[state.tone]}`}>{state.label}</span>
        {destination.ordered ? <span className={`${ui.badge} ${ui.badgeOff}`}>Ordered</span> : null}
        {destination.autoAcknowledge ? <span className={`${ui.badge} ${ui.badgeOff}`}>Auto-acknowledge</span> : null}
        {failure ? <span className={`${ui.badge} ${ui.badgeRevoked}`}>Failing</span> : null}
      </div>
      {failure ? (
        <p className={styles.failure}>
          <span className="visually-hidden">Failing: </span>Last error: {failure}
        </p>
      ) : null}
      <p className={styles.destinationMeta}>
        Timeout {destination.timeoutMs.toLocaleString("en")} ms · up to {destination.retry.maxAttempts}{" "}
        {destination.retry.maxAttempts === 1 ? "attempt" : "attempts"} within{" "}
        {describeSeconds(destination.retry.maxAgeSeconds)}
        {destination.rateLimitPerSecond !== null ? ` · at most ${destination.rateLimitPerSecond}/s` : ""}
        {Object.keys(destination.headers).length > 0
          ? ` · extra headers: ${Object.keys(destination.headers).join(", ")}`
          : ""}
        {lastSuccess ? ` · ${lastSuccess}` : ""}
      </p>

      {toggle.error ? (
        <p role="alert" className={`${ui.alert} ${styles.result}`}>
          Could not {destination.enabled ? "disable" : "enable"} the destination: {errorMessage(toggle.error)}
        </p>
      ) : null}

      <div className={styles.destinationActions}>
        <label className={ui.check}>
          <input
            type="checkbox"
            role="switch"
            checked={enabled}
            // aria-disabled, not disabled: a disabled control drops the keyboard focus.
            aria-disabled={toggle.isPending}
            aria-describedby={`${id}-url`}
            onChange={() => !toggle.isPending && toggle.mutate({ enabled: !destination.enabled })}
          />
          <span>Forward</span>
        </label>
        <span className={styles.spacer} />
        <button
          ref={editButton}
          type="button"
          className="button button-small"
          aria-expanded={editing}
          aria-controls={editing ? `${id}-edit` : undefined}
          aria-describedby={`${id}-url`}
          onClick={() => (editing ? closeEdit(null) : setEditing(true))}
        >
          Edit
        </button>
        <button
          type="button"
          className={`button button-small ${ui.dangerOutline}`}
          aria-describedby={`${id}-url`}
          onClick={() => setConfirmingDelete(true)}
        >
          Remove
        </button>
      </div>

      {editing ? (
        <section id={`${id}-edit`} className={styles.panel} aria-labelledby={`${id}-edit-title`}>
          <h3 id={`${id}-edit-title`}>Edit destination</h3>
          <DestinationForm
            mode="edit"
            initial={destinationFormValues(destination)}
            submitLabel="Save"
            pendingLabel="Saving…"
            pending={edit.isPending}
            error={edit.error}
            onSubmit={(body) =>
              edit.mutate(body, { onSuccess: () => closeEdit("Saved the destination. Queued forwards use it next.") })
            }
            onCancel={() => closeEdit(null)}
          />
        </section>
      ) : null}

      <ConfirmDialog
        open={confirmingDelete}
        title="Remove this destination?"
        confirmLabel="Remove destination"
        pendingLabel="Removing…"
        pending={remove.isPending}
        error={remove.error ? errorMessage(remove.error) : null}
        onConfirm={() => void confirmDelete()}
        onCancel={() => {
          setConfirmingDelete(false);
          remove.reset();
        }}
      >
        <p>
          Deliveries stop being forwarded to <code className="break">{destination.url}</code>. Its queued forwards and
          their attempts are deleted with it; the deliveries stay in the inbox. This cannot be undone.
        </p>
        <p className={ui.muted}>To pause forwarding but keep its history, turn off “Forward” instead.</p>
      </ConfirmDialog>
    </article>
  );
}
