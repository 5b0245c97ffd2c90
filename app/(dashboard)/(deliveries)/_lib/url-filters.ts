import { MAX_EVENT_TYPE_LENGTH, MAX_SEARCH_CHARS, MIN_SEARCH_CHARS } from "@/lib/contracts/webhooks";
import { payloadFilterProblem } from "@/lib/contracts/payload-filter";
import { STATUS_FILTERS, unacknowledgedParam, type StatusFilter } from "./delivery-status";
import type { DeliveryFilters } from "./types";

/**
 * The Deliveries page's filters as its URL holds them (`?q=…&endpoint=…&status=pending&eventType=…&since=…&until=…&payload=…`),
 * so that a link reproduces the view and Back returns to the previous one. Times are ISO 8601 instants (a link means
 * the same window in every time zone); the inputs show them in local time.
 */
export interface FilterView {
  q: string;
  endpointId: string;
  status: StatusFilter;
  /** One event type, exact (not trimmed: the API compares as sent); "" is every type. */
  eventType: string;
  since: string;
  until: string;
  payload: string;
}

export const NO_FILTERS: FilterView = {
  q: "",
  endpointId: "",
  status: "all",
  eventType: "",
  since: "",
  until: "",
  payload: "",
};

const PARAMS = {
  q: "q",
  endpointId: "endpoint",
  status: "status",
  eventType: "eventType",
  since: "since",
  until: "until",
  payload: "payload",
} as const satisfies Record<keyof FilterView, string>;

export function readFilterView(params: { get(name: string): string | null }): FilterView {
  const status = params.get(PARAMS.status);
  return {
    q: params.get(PARAMS.q) ?? "",
    endpointId: params.get(PARAMS.endpointId) ?? "",
    status: STATUS_FILTERS.some((choice) => choice.value === status) ? (status as StatusFilter) : "all",
    // A type longer than any stored one (an edited link) matches nothing; the API would refuse it, so it is dropped.
    eventType: eventTypeParam(params.get(PARAMS.eventType)),
    since: isInstant(params.get(PARAMS.since)) ? params.get(PARAMS.since)! : "",
    until: isInstant(params.get(PARAMS.until)) ? params.get(PARAMS.until)! : "",
    payload: params.get(PARAMS.payload) ?? "",
  };
}

/** The query string of a view: only the filters that are set, in a fixed order (one view, one URL). */
export function filterViewSearch(view: FilterView): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(PARAMS) as (keyof FilterView)[])
    if (view[key] !== NO_FILTERS[key]) params.set(PARAMS[key], view[key]);
  const search = params.toString();
  return search ? `?${search}` : "";
}

export function isFiltered(view: FilterView): boolean {
  return filterViewSearch(view) !== "";
}

/** What is wrong with the search text, or null (empty is no search). */
export function searchProblem(q: string): string | null {
  const length = [...q].length;
  if (length === 0) return null;
  if (length < MIN_SEARCH_CHARS) return `Type at least ${MIN_SEARCH_CHARS} characters to search.`;
  if (length > MAX_SEARCH_CHARS) return `Search at most ${MAX_SEARCH_CHARS} characters.`;
  if (q.includes("\u0000")) return "The search cannot contain a NUL character.";
  return null;
}

/** What is wrong with the payload filter text, or null (empty is no filter). */
export function payloadProblem(payload: string): string | null {
  if (payload.trim() === "") return null;
  const problem = payloadFilterProblem(payload);
  return problem ? `The payload filter ${problem.replaceAll("`", "")}.` : null;
}

/** What is wrong with the time range, or null. */
export function rangeProblem(view: Pick<FilterView, "since" | "until">): string | null {
  return view.since && view.until && Date.parse(view.since) > Date.parse(view.until)
    ? "The start of the time range is after its end."
    : null;
}

/** The API's filters for a view; a search, payload or range the API would refuse is left out (and shown as such). */
export function toDeliveryFilters(view: FilterView): DeliveryFilters {
  return {
    endpointId: view.endpointId || undefined,
    unacknowledged: unacknowledgedParam(view.status),
    eventType: view.eventType || undefined,
    q: view.q && !searchProblem(view.q) ? view.q : undefined,
    since: (!rangeProblem(view) && view.since) || undefined,
    until: (!rangeProblem(view) && view.until) || undefined,
    payload: view.payload.trim() && !payloadProblem(view.payload) ? view.payload : undefined,
  };
}

/** Whether the filters match on content: then a page is a bounded window and may be empty with more to search. */
export function searchesContent(filters: DeliveryFilters): boolean {
  return filters.q !== undefined || filters.payload !== undefined;
}

function eventTypeParam(value: string | null): string {
  return value !== null && value.length <= MAX_EVENT_TYPE_LENGTH ? value : ""; // UTF-16 units, as the API counts
}

function isInstant(value: string | null): boolean {
  return value !== null && /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));
}

/** An instant as a `datetime-local` input shows it, in the browser's zone, to the minute. */
export function toLocalInput(iso: string): string {
  if (!iso) return "";
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (local time, no zone) as the instant it names; "" when empty or incomplete. */
export function fromLocalInput(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return "";
  const date = new Date(value); // a date-time without a zone is local time
  return Number.isNaN(date.getTime()) ? "" : date.toISOString();
}
