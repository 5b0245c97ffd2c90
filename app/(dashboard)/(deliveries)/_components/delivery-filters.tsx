"use client";

import { useEffect, useEffectEvent, useId, useState } from "react";
import { MAX_LISTED_EVENT_TYPES } from "@/lib/contracts/webhooks";
import { STATUS_FILTERS, type StatusFilter } from "../_lib/delivery-status";
import type { WebhookEndpoint } from "../_lib/types";
import {
  NO_FILTERS,
  fromLocalInput,
  isFiltered,
  payloadProblem,
  rangeProblem,
  searchProblem,
  toLocalInput,
  type FilterView,
} from "../_lib/url-filters";

const SEARCH_DEBOUNCE_MS = 300;
const PAYLOAD_DEBOUNCE_MS = 500;

/**
 * A text input's value while typing, taken from the URL again whenever the URL changes (Back, a link, "Clear"):
 * state adjusted during render, React's pattern for state that follows a prop.
 */
function useDraft(committed: string) {
  const [draft, setDraft] = useState(committed);
  const [seen, setSeen] = useState(committed);
  if (committed !== seen) {
    setSeen(committed);
    setDraft(committed);
  }
  return [draft, setDraft] as const;
}

/** Commits a valid draft after a pause in typing: the first change of a filter is a step back, later ones amend it. */
function useDebouncedCommit(
  draft: string,
  committed: string,
  valid: boolean,
  delayMs: number,
  commit: (value: string, history: "push" | "replace") => void,
) {
  // Read when the timer fires: a render for anything else (a poll, an event) does not restart the pause.
  const onPause = useEffectEvent(() => commit(draft, committed ? "replace" : "push"));
  useEffect(() => {
    if (draft === committed || !valid) return;
    const timer = setTimeout(onPause, delayMs);
    return () => clearTimeout(timer);
  }, [draft, committed, valid, delayMs]);
}

interface Props {
  view: FilterView;
  update: (next: Partial<FilterView>, history?: "push" | "replace") => void;
  endpoints: WebhookEndpoint[];
  /** The event types to offer (see eventTypeChoices), and whether the API listed only the first ones. */
  eventTypes: string[];
  eventTypesTruncated: boolean;
}

/**
 * The Deliveries page's filter bar: search, endpoint, status, event type, time range and payload; the URL holds them
 * all.
 */
export function DeliveryFilterBar({ view, update, endpoints, eventTypes, eventTypesTruncated }: Props) {
  const ids = {
    search: useId(),
    endpoint: useId(),
    status: useId(),
    eventType: useId(),
    since: useId(),
    until: useId(),
    payload: useId(),
  };
  const [search, setSearch] = useDraft(view.q);
  const [payload, setPayload] = useDraft(view.payload);
  const searchError = searchProblem(search);
  const payloadError = payloadProblem(payload);
  const rangeError = rangeProblem(view);
  useDebouncedCommit(search, view.q, !searchError, SEARCH_DEBOUNCE_MS, (q, history) => update({ q }, history));
  useDebouncedCommit(
    payload.trim() ? payload : "",
    view.payload,
    !payloadError,
    PAYLOAD_DEBOUNCE_MS,
    (value, history) => update({ payload: value }, history),
  );

  return (
    <div className="filter-bar" role="search" aria-label="Filter deliveries">
      <div className="field filter-search">
        <label htmlFor={ids.search}>Search</label>
        <input
          id={ids.search}
          type="search"
          className="input"
          placeholder="Text in the body, a header or the query string"
          value={search}
          maxLength={400}
          aria-invalid={searchError ? true : undefined}
          aria-describedby={`${ids.search}-hint`}
          onChange={(event) => setSearch(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !searchError) update({ q: search }, view.q ? "replace" : "push");
          }}
        />
        <p id={`${ids.search}-hint`} className={searchError ? "field-error" : "hint"}>
          {searchError ??
            "Body, headers and query string; A–Z in any case. Compressed and binary bodies: headers only."}
        </p>
      </div>
      <div className="field">
        <label htmlFor={ids.endpoint}>Endpoint</label>
        <select
          id={ids.endpoint}
          className="select"
          value={view.endpointId}
          onChange={(event) => update({ endpointId: event.target.value })}
        >
          <option value="">All endpoints</option>
          {endpoints.map((endpoint) => (
            <option key={endpoint.id} value={endpoint.id}>
              {endpoint.name}
              {endpoint.pendingCount ? ` (${endpoint.pendingCount.toLocaleString("en")} pending)` : ""}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.status}>Status</label>
        <select
          id={ids.status}
          className="select"
          value={view.status}
          onChange={(event) => update({ status: event.target.value as StatusFilter })}
        >
          {STATUS_FILTERS.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field filter-event-type">
        <label htmlFor={ids.eventType}>Event type</label>
        <select
          id={ids.eventType}
          className="select"
          value={view.eventType}
          onChange={(event) => update({ eventType: event.target.value })}
        >
          <option value="">All event types</option>
          {eventTypes.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
        {eventTypesTruncated ? (
          <p className="hint">The first {MAX_LISTED_EVENT_TYPES} types received are listed.</p>
        ) : null}
      </div>
      <TimeBoundField
        id={ids.since}
        label="Received from"
        value={view.since}
        invalid={rangeError !== null}
        onChange={(since) => update({ since })}
      />
      <TimeBoundField
        id={ids.until}
        label="to (before)"
        value={view.until}
        invalid={rangeError !== null}
        onChange={(until) => update({ until })}
      />
      <div className="field filter-payload">
        <label htmlFor={ids.payload}>Payload contains (JSON)</label>
        <input
          id={ids.payload}
          className="input"
          placeholder='{"type":"invoice.paid"}'
          spellCheck={false}
          value={payload}
          aria-invalid={payloadError ? true : undefined}
          aria-describedby={`${ids.payload}-hint`}
          onChange={(event) => setPayload(event.target.value)}
        />
        <p id={`${ids.payload}-hint`} className={payloadError ? "field-error" : "hint"}>
          {payloadError ?? "JSON bodies that contain this object (fields, nested objects, array items)."}
        </p>
      </div>
      {rangeError ? (
        <p className="field-error filter-wide" role="alert">
          {rangeError}
        </p>
      ) : null}
      {isFiltered(view) ? (
        <button type="button" className="button button-ghost" onClick={() => update(NO_FILTERS)}>
          Clear filters
        </button>
      ) : null}
    </div>
  );
}

/** One end of the receipt-time range, edited in the browser's local time and held in the URL as an instant. */
function TimeBoundField(props: {
  id: string;
  label: string;
  value: string;
  invalid: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="datetime-local"
        className="input"
        value={toLocalInput(props.value)}
        aria-invalid={props.invalid ? true : undefined}
        onChange={(event) => props.onChange(fromLocalInput(event.target.value))}
      />
    </div>
  );
}
