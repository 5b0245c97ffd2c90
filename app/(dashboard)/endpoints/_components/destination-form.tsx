"use client";

import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { FormAlert } from "@/app/(dashboard)/_components/form-alert";
import { TextField } from "@/app/(dashboard)/_components/text-field";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { useFocusFirstInvalid } from "@/app/(dashboard)/_hooks/use-focus-first-invalid";
import { MAX_DESTINATION_HEADERS } from "@/lib/contracts/forwarding";
import {
  destinationFormErrors,
  NO_ERRORS,
  toDestinationBody,
  type DestinationBody,
  type DestinationFormErrors,
  type DestinationFormValues,
  type HeaderRow,
} from "../_lib/destination-form";
import styles from "./endpoints.module.css";

/**
 * The destination form, for adding one and for changing one. Validation is the contract's, run before sending (so
 * most mistakes are shown at once, on their fields) and again by the API (its answer lands on the same fields).
 * `noValidate`: the browser's own bubbles would show other words than the API's, and only for some rules.
 */
export function DestinationForm({
  mode,
  initial,
  submitLabel,
  pendingLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  /** Empty number fields mean the service's default when adding, the current value when editing. */
  mode: "create" | "edit";
  initial: DestinationFormValues;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** The failed request's error, if the last submit failed. */
  error: unknown;
  onSubmit: (body: DestinationBody) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(initial);
  const [checked, setChecked] = useState<DestinationFormErrors | null>(null);
  const nextKey = useRef(initial.headers.length);
  // The input to focus once the rows it depends on are rendered (after adding or removing a row).
  const focusTarget = useRef<string | null>(null);
  const errors = checked ?? (error ? destinationFormErrors(error, values.headers) : NO_ERRORS);
  useFocusFirstInvalid(form, checked ?? error);

  useEffect(() => {
    if (focusTarget.current === null) return;
    document.getElementById(focusTarget.current)?.focus();
    focusTarget.current = null;
  });

  function set<K extends keyof DestinationFormValues>(key: K, value: DestinationFormValues[K]) {
    setValues((current) => ({ ...current, [key]: value }));
  }

  function setRow(index: number, change: Partial<HeaderRow>) {
    set(
      "headers",
      values.headers.map((row, at) => (at === index ? { ...row, ...change } : row)),
    );
  }

  function addRow() {
    const key = nextKey.current++;
    set("headers", [...values.headers, { key, name: "", value: "" }]);
    focusTarget.current = `${id}-header-${key}-name`;
  }

  function removeRow(index: number) {
    const rows = values.headers.filter((_row, at) => at !== index);
    set("headers", rows);
    // The focus goes to the row that took its place, else the one before, else "Add header".
    const next = rows[index] ?? rows[index - 1];
    focusTarget.current = next ? `${id}-header-${next.key}-name` : `${id}-add-header`;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    const result = toDestinationBody(values);
    if (!result.ok) {
      setChecked(result.errors);
      return;
    }
    setChecked(null);
    onSubmit(result.body);
  }

  const rowErrorId = (row: HeaderRow) => `${id}-header-${row.key}-error`;
  const emptyMeans = (defaultText: string) => (mode === "create" ? `Empty: ${defaultText}.` : "Empty: unchanged.");
  const headersError = errors.fields.headers;

  return (
    <form ref={form} className={ui.stack} onSubmit={submit} noValidate>
      <FormAlert message={errors.form} />
      <TextField
        id={`${id}-url`}
        label="URL"
        value={values.url}
        onChange={(url) => set("url", url)}
        required
        maxLength={2048}
        inputMode="url"
        autoFocus
        placeholder="https://example.com/webhooks"
        hint="Each delivery is POSTed here with its exact body and the sender's headers, signed by Signalbox."
        error={errors.fields.url}
      />

      <fieldset
        className={ui.fieldset}
        aria-describedby={`${id}-headers-hint${headersError ? ` ${id}-headers-error` : ""}`}
      >
        <legend>Extra headers</legend>
        <p id={`${id}-headers-hint`} className="hint">
          Added to every forward, e.g. an Authorization your service checks. Up to {MAX_DESTINATION_HEADERS}.
        </p>
        {values.headers.length > 0 ? (
          <div className={styles.headerRows}>
            {/* Column titles for the eye; each input has its own label ("Header 2 value") for assistive technology. */}
            <div className={styles.headerRow} aria-hidden="true">
              <span className={ui.label}>Name</span>
              <span className={ui.label}>Value</span>
            </div>
            {values.headers.map((row, index) => {
              const rowError = errors.rows[index];
              const describedBy = rowError ? rowErrorId(row) : undefined;
              return (
                <div key={row.key} className={styles.headerRow}>
                  <label htmlFor={`${id}-header-${row.key}-name`} className="visually-hidden">
                    Header {index + 1} name
                  </label>
                  <input
                    id={`${id}-header-${row.key}-name`}
                    className="input mono"
                    value={row.name}
                    onChange={(event) => setRow(index, { name: event.target.value })}
                    maxLength={100}
                    autoComplete="off"
                    spellCheck={false}
                    aria-invalid={rowError ? true : undefined}
                    aria-describedby={describedBy}
                  />
                  <label htmlFor={`${id}-header-${row.key}-value`} className="visually-hidden">
                    Header {index + 1} value
                  </label>
                  <input
                    id={`${id}-header-${row.key}-value`}
                    className="input mono"
                    value={row.value}
                    onChange={(event) => setRow(index, { value: event.target.value })}
                    maxLength={2048}
                    autoComplete="off"
                    spellCheck={false}
                    aria-describedby={describedBy}
                  />
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={`Remove header ${index + 1}${row.name.trim() ? ` (${row.name.trim()})` : ""}`}
                    onClick={() => removeRow(index)}
                  >
                    Remove
                  </button>
                  {rowError ? (
                    <p id={rowErrorId(row)} className={`field-error ${styles.headerRowError}`}>
                      {row.name.trim() ? `${row.name.trim()}: ${rowError}` : rowError}
                    </p>
                  ) : null}
                </div>
              );
            })}
          </div>
        ) : null}
        {headersError ? (
          <p id={`${id}-headers-error`} className="field-error">
            {headersError}
          </p>
        ) : null}
        {values.headers.length < MAX_DESTINATION_HEADERS ? (
          <div>
            <button id={`${id}-add-header`} type="button" className="button button-small" onClick={addRow}>
              Add header
            </button>
          </div>
        ) : null}
      </fieldset>

      <fieldset className={ui.fieldset}>
        <legend>Attempts</legend>
        <div className={ui.twoColumns}>
          <TextField
            id={`${id}-timeout`}
            label="Timeout (ms)"
            optional
            value={values.timeoutMs}
            onChange={(text) => set("timeoutMs", text)}
            inputMode="numeric"
            placeholder="10000"
            hint={`How long one attempt may take: 1000 to 30000. ${emptyMeans("10000")}`}
            error={errors.fields.timeoutMs}
          />
          <TextField
            id={`${id}-max-attempts`}
            label="Max attempts"
            optional
            value={values.maxAttempts}
            onChange={(text) => set("maxAttempts", text)}
            inputMode="numeric"
            placeholder="8"
            hint={`1 to 20, retried with growing pauses. ${emptyMeans("8")}`}
            error={errors.fields["retry.maxAttempts"]}
          />
          <TextField
            id={`${id}-max-age`}
            label="Max age (seconds)"
            optional
            value={values.maxAgeSeconds}
            onChange={(text) => set("maxAgeSeconds", text)}
            inputMode="numeric"
            placeholder="86400"
            hint={`No attempt later than this after receipt: 60 to 604800 (7 days). ${emptyMeans("one day")}`}
            error={errors.fields["retry.maxAgeSeconds"]}
          />
          <TextField
            id={`${id}-rate-limit`}
            label="Rate limit (per second)"
            optional
            value={values.rateLimitPerSecond}
            onChange={(text) => set("rateLimitPerSecond", text)}
            inputMode="numeric"
            hint="At most this many attempts a second: 1 to 1000. Empty: no limit."
            error={errors.fields.rateLimitPerSecond}
          />
        </div>
        <div className="field">
          <label className={ui.check}>
            <input
              type="checkbox"
              checked={values.autoAcknowledge}
              onChange={(event) => set("autoAcknowledge", event.target.checked)}
              aria-describedby={`${id}-auto-ack-hint`}
            />
            <span>Acknowledge automatically</span>
          </label>
          <p id={`${id}-auto-ack-hint`} className="hint">
            A delivery is acknowledged once every enabled destination of the endpoint accepted it (answered 2xx).
          </p>
        </div>
        <div className="field">
          <label className={ui.check}>
            <input
              type="checkbox"
              checked={values.ordered}
              onChange={(event) => set("ordered", event.target.checked)}
              aria-describedby={`${id}-ordered-hint`}
            />
            <span>Keep order</span>
          </label>
          <p id={`${id}-ordered-hint`} className="hint">
            One delivery at a time, oldest first: a later delivery waits while an earlier one is retried.
          </p>
        </div>
      </fieldset>

      <div className={ui.row}>
        <button type="submit" className="button button-primary" aria-disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
