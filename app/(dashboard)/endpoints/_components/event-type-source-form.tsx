"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { FormAlert } from "@/app/(dashboard)/_components/form-alert";
import { TextField } from "@/app/(dashboard)/_components/text-field";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { useFocusFirstInvalid } from "@/app/(dashboard)/_hooks/use-focus-first-invalid";
import { formErrors } from "@/app/(dashboard)/_lib/form-errors";
import { useUpdateEndpoint, type WebhookEndpoint } from "../_hooks/use-endpoints";
import {
  eventTypeSourceKind,
  eventTypeSourceText,
  toEventTypeSource,
  type EventTypeSourceKind,
} from "../_lib/event-type-source";

const FIELDS = ["eventTypeSource.header", "eventTypeSource.jsonPath"];

const KINDS: { value: EventTypeSourceKind; label: string }[] = [
  { value: "builtIn", label: "The sender's usual place only" },
  { value: "header", label: "A request header" },
  { value: "jsonPath", label: "A path in the JSON body" },
];

/** Where this endpoint's senders put the event type, read before the well-known senders' places. */
export function EventTypeSourceForm({
  endpoint,
  onDone,
}: {
  endpoint: WebhookEndpoint;
  onDone: (message: string | null) => void;
}) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const update = useUpdateEndpoint(endpoint.id);
  const [kind, setKind] = useState(eventTypeSourceKind(endpoint.eventTypeSource));
  const [text, setText] = useState(eventTypeSourceText(endpoint.eventTypeSource));
  const errors = update.error ? formErrors(update.error, FIELDS) : { form: null, fields: {} };
  useFocusFirstInvalid(form, update.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (update.isPending) return;
    update.mutate(
      { eventTypeSource: toEventTypeSource(kind, text) },
      { onSuccess: () => onDone("Saved where event types are read. Deliveries already received keep theirs.") },
    );
  }

  return (
    <form ref={form} className={ui.stack} onSubmit={submit}>
      <p className="hint">
        GitHub, Stripe, Shopify, GitLab, Slack, Twilio, Standard Webhooks, Svix and CloudEvents types are found without
        this. A body over 256 KiB or compressed is not read.
      </p>
      <FormAlert message={errors.form} />
      <div className="field">
        <label htmlFor={`${id}-kind`}>Read the event type from</label>
        <select
          id={`${id}-kind`}
          className={`select ${ui.fill}`}
          value={kind}
          onChange={(event) => setKind(event.target.value as EventTypeSourceKind)}
        >
          {KINDS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      {kind === "header" ? (
        <TextField
          id={`${id}-header`}
          label="Header name"
          value={text}
          onChange={setText}
          required
          maxLength={100}
          hint="For example X-Event-Name."
          error={errors.fields["eventTypeSource.header"]}
        />
      ) : null}
      {kind === "jsonPath" ? (
        <TextField
          id={`${id}-path`}
          label="JSON path"
          value={text}
          onChange={setText}
          required
          maxLength={200}
          hint="Member names joined by dots, numbers for array items: data.object.type, events.0.name."
          error={errors.fields["eventTypeSource.jsonPath"]}
        />
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
