"use client";

import { useEffect, useId, useRef, useState } from "react";
import { CopyButton } from "@/app/(dashboard)/_components/copy-button";
import { ConfirmDialog } from "@/app/(dashboard)/_components/modal-dialog";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { formatCount, formatDate } from "@/app/(dashboard)/_lib/display-format";
import { errorMessage } from "@/app/(dashboard)/_lib/form-errors";
import {
  useDeleteEndpoint,
  useSendTestDelivery,
  useUpdateEndpoint,
  type WebhookEndpoint,
} from "../_hooks/use-endpoints";
import { describeEventTypeSource } from "../_lib/event-type-source";
import { describeEffectiveRetention } from "../_lib/retention";
import { describeSigning } from "../_lib/signing-schemes";
import { DestinationsSection } from "./destinations-section";
import { EditDetailsForm, SigningSettingsForm } from "./endpoint-forms";
import { EndpointRetentionForm } from "./endpoint-retention-form";
import { EventTypeSourceForm } from "./event-type-source-form";
import { RejectionsSection } from "./rejections-section";
import styles from "./endpoints.module.css";

type Panel = "details" | "signing" | "eventTypes" | "retention" | null;

const PANEL_TITLES = {
  details: "Name and description",
  signing: "Signature check",
  eventTypes: "Event types",
  retention: "Retention",
};

export function EndpointCard({
  endpoint,
  focusOnMount,
  onDeleted,
}: {
  endpoint: WebhookEndpoint;
  focusOnMount: boolean;
  onDeleted: (message: string) => void;
}) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const detailsButton = useRef<HTMLButtonElement>(null);
  const signingButton = useRef<HTMLButtonElement>(null);
  const eventTypesButton = useRef<HTMLButtonElement>(null);
  const retentionButton = useRef<HTMLButtonElement>(null);
  const [panel, setPanel] = useState<Panel>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const toggle = useUpdateEndpoint(endpoint.id);
  const remove = useDeleteEndpoint(endpoint.id);
  const test = useSendTestDelivery(endpoint);

  useEffect(() => {
    if (focusOnMount) heading.current?.focus();
  }, [focusOnMount]);

  // While the switch's request runs, show the state asked for rather than flicking back.
  const enabled =
    toggle.isPending && toggle.variables.enabled !== undefined ? toggle.variables.enabled : endpoint.enabled;

  function openPanel(next: Panel) {
    setNotice(null);
    test.reset();
    setPanel(panel === next ? null : next);
  }

  function closePanel(message: string | null) {
    const opener = {
      details: detailsButton,
      signing: signingButton,
      eventTypes: eventTypesButton,
      retention: retentionButton,
    }[panel ?? "details"];
    setPanel(null);
    setNotice(message);
    opener.current?.focus();
  }

  async function confirmDelete() {
    // mutateAsync rather than mutate's callbacks: the refetch that follows a delete unmounts this card, and react-query
    // skips per-call callbacks of unmounted observers.
    const answer = await remove.mutateAsync().catch(() => null); // the error is shown from `remove.error`
    if (!answer) return;
    setConfirmingDelete(false);
    const count = answer.data.deletedDeliveries;
    onDeleted(`Deleted “${endpoint.name}” and its ${formatCount(count)} ${count === 1 ? "delivery" : "deliveries"}.`);
  }

  return (
    <article className={ui.card} aria-labelledby={`${id}-title`}>
      <div className={styles.cardHeader}>
        <div className={styles.titleLine}>
          <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
            {endpoint.name}
          </h2>
          <span className={`${ui.badge} ${enabled ? ui.badgeOn : ui.badgeOff}`}>
            {enabled ? "Enabled" : "Disabled"}
          </span>
        </div>
        <label className={ui.check}>
          <input
            type="checkbox"
            role="switch"
            checked={enabled}
            // aria-disabled, not disabled: a disabled control drops the keyboard focus.
            aria-disabled={toggle.isPending}
            onChange={() => !toggle.isPending && toggle.mutate({ enabled: !endpoint.enabled })}
            aria-describedby={`${id}-switch-hint`}
          />
          <span>Accept deliveries</span>
          <span id={`${id}-switch-hint`} className="visually-hidden">
            A disabled endpoint answers 404 to senders; its stored deliveries stay.
          </span>
        </label>
      </div>
      {endpoint.description ? <p className={styles.description}>{endpoint.description}</p> : null}

      <div className={styles.ingest}>
        <span className={ui.label} id={`${id}-url-label`}>
          Ingest URL
        </span>
        <div className={styles.ingestRow}>
          <code className={styles.url} aria-labelledby={`${id}-url-label`}>
            {endpoint.ingestUrl}
          </code>
          <CopyButton text={endpoint.ingestUrl} label={`Copy the ingest URL of ${endpoint.name}`} />
        </div>
      </div>

      <dl className={styles.stats}>
        <div>
          <dt>Pending</dt>
          <dd>{formatCount(endpoint.pendingCount)}</dd>
        </div>
        <div>
          <dt>Total received</dt>
          <dd>{formatCount(endpoint.totalCount)}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDate(endpoint.createdAt)}</dd>
        </div>
        <div className={styles.wide}>
          <dt>Signatures</dt>
          <dd className={styles.statsLine}>{describeSigning(endpoint.signing)}</dd>
        </div>
        <div className={styles.wide}>
          <dt>Event types</dt>
          <dd className={styles.statsLine}>{describeEventTypeSource(endpoint.eventTypeSource)}</dd>
        </div>
        <div className={styles.wide}>
          <dt>Retention</dt>
          <dd className={styles.statsLine}>{describeEffectiveRetention(endpoint.effectiveRetention)}</dd>
        </div>
      </dl>

      {toggle.error ? (
        <p role="alert" className={`${ui.alert} ${styles.result}`}>
          Could not {endpoint.enabled ? "disable" : "enable"} the endpoint: {errorMessage(toggle.error)}
        </p>
      ) : null}

      <div className={styles.actions}>
        <button
          type="button"
          className="button button-small"
          onClick={() => !test.isPending && test.mutate()}
          aria-describedby={`${id}-title`}
          aria-disabled={test.isPending}
        >
          {test.isPending ? "Sending…" : "Send test delivery"}
        </button>
        <button
          ref={detailsButton}
          type="button"
          className="button button-small"
          aria-expanded={panel === "details"}
          aria-controls={panel === "details" ? `${id}-panel` : undefined}
          aria-describedby={`${id}-title`}
          onClick={() => openPanel("details")}
        >
          Edit details
        </button>
        <button
          ref={signingButton}
          type="button"
          className="button button-small"
          aria-expanded={panel === "signing"}
          aria-controls={panel === "signing" ? `${id}-panel` : undefined}
          aria-describedby={`${id}-title`}
          onClick={() => openPanel("signing")}
        >
          Signature settings
        </button>
        <button
          ref={eventTypesButton}
          type="button"
          className="button button-small"
          aria-expanded={panel === "eventTypes"}
          aria-controls={panel === "eventTypes" ? `${id}-panel` : undefined}
          aria-describedby={`${id}-title`}
          onClick={() => openPanel("eventTypes")}
        >
          Event types
        </button>
        <button
          ref={retentionButton}
          type="button"
          className="button button-small"
          aria-expanded={panel === "retention"}
          aria-controls={panel === "retention" ? `${id}-panel` : undefined}
          aria-describedby={`${id}-title`}
          onClick={() => openPanel("retention")}
        >
          Retention
        </button>
        <span className={styles.spacer} />
        <button
          type="button"
          className={`button button-small ${ui.dangerOutline}`}
          aria-describedby={`${id}-title`}
          onClick={() => setConfirmingDelete(true)}
        >
          Delete
        </button>
      </div>

      <div role="status" className={notice || test.data || test.error ? styles.result : undefined}>
        {notice ? <p className={ui.success}>{notice}</p> : null}
        {test.data ? <p className={test.data.ok ? ui.success : ui.warning}>{test.data.message}</p> : null}
        {test.error ? <p className={ui.warning}>{errorMessage(test.error)}</p> : null}
      </div>

      {panel ? (
        <section id={`${id}-panel`} className={styles.panel} aria-labelledby={`${id}-panel-title`}>
          <h3 id={`${id}-panel-title`}>{PANEL_TITLES[panel]}</h3>
          {panel === "details" ? <EditDetailsForm endpoint={endpoint} onDone={closePanel} /> : null}
          {panel === "signing" ? <SigningSettingsForm endpoint={endpoint} onDone={closePanel} /> : null}
          {panel === "eventTypes" ? <EventTypeSourceForm endpoint={endpoint} onDone={closePanel} /> : null}
          {panel === "retention" ? <EndpointRetentionForm endpoint={endpoint} onDone={closePanel} /> : null}
        </section>
      ) : null}

      <DestinationsSection endpointId={endpoint.id} endpointName={endpoint.name} />
      <RejectionsSection endpointId={endpoint.id} endpointName={endpoint.name} />

      <ConfirmDialog
        open={confirmingDelete}
        title={`Delete “${endpoint.name}”?`}
        confirmLabel="Delete endpoint and deliveries"
        pendingLabel="Deleting…"
        pending={remove.isPending}
        error={remove.error ? errorMessage(remove.error) : null}
        onConfirm={() => void confirmDelete()}
        onCancel={() => {
          setConfirmingDelete(false);
          remove.reset();
        }}
      >
        <p>
          Its ingest URL stops working at once: senders get 404. All {formatCount(endpoint.totalCount)}{" "}
          {endpoint.totalCount === 1 ? "delivery" : "deliveries"} received on it
          {endpoint.pendingCount > 0 ? `, ${formatCount(endpoint.pendingCount)} of them still pending,` : ""} are
          deleted with it. This cannot be undone.
        </p>
        <p className={ui.muted}>To stop receiving but keep the deliveries, turn off “Accept deliveries” instead.</p>
      </ConfirmDialog>
    </article>
  );
}
