import { ApiClientError } from "@/lib/client/api-client";
import type { ClientInput } from "@/lib/contracts/contract";
import type { ErrorDetail } from "@/lib/contracts/errors";
import { createDestinationContract } from "@/lib/contracts/forwarding";
import { errorMessage } from "@/app/(dashboard)/_lib/form-errors";
import type { Destination } from "@/app/(dashboard)/_hooks/use-destination-list";

/** The body creating (and, field for field, changing) a destination sends. */
export type DestinationBody = NonNullable<ClientInput<typeof createDestinationContract>["body"]>;

/** One "extra header" row; `key` keeps React's identity of a row while rows above it are removed. */
export interface HeaderRow {
  key: number;
  name: string;
  value: string;
}

/** The form as typed: numbers stay text until submitted, so a half-typed value is never rewritten under the cursor. */
export interface DestinationFormValues {
  url: string;
  headers: HeaderRow[];
  timeoutMs: string;
  maxAttempts: string;
  maxAgeSeconds: string;
  /** Empty: no limit. */
  rateLimitPerSecond: string;
  autoAcknowledge: boolean;
  ordered: boolean;
}

/** The form's fields, by the API's dotted paths (what validation errors name). */
export const DESTINATION_FIELDS = [
  "url",
  "headers",
  "timeoutMs",
  "retry.maxAttempts",
  "retry.maxAgeSeconds",
  "rateLimitPerSecond",
  "autoAcknowledge",
  "ordered",
] as const;
export type DestinationField = (typeof DESTINATION_FIELDS)[number];

export interface DestinationFormErrors {
  /** A message for the whole form (problems no field shows), or null. */
  form: string | null;
  fields: Partial<Record<DestinationField, string>>;
  /** By row index: the problem with that header row (its name, in practice: the value input cannot hold CR or LF). */
  rows: (string | undefined)[];
}

export const NO_ERRORS: DestinationFormErrors = { form: null, fields: {}, rows: [] };

export function emptyDestinationForm(): DestinationFormValues {
  return {
    url: "",
    headers: [],
    timeoutMs: "",
    maxAttempts: "",
    maxAgeSeconds: "",
    rateLimitPerSecond: "",
    autoAcknowledge: false,
    ordered: false,
  };
}

/** An existing destination as the edit form starts. */
export function destinationFormValues(destination: Destination): DestinationFormValues {
  return {
    url: destination.url,
    headers: Object.entries(destination.headers).map(([name, value], index) => ({ key: index, name, value })),
    timeoutMs: String(destination.timeoutMs),
    maxAttempts: String(destination.retry.maxAttempts),
    maxAgeSeconds: String(destination.retry.maxAgeSeconds),
    rateLimitPerSecond: destination.rateLimitPerSecond === null ? "" : String(destination.rateLimitPerSecond),
    autoAcknowledge: destination.autoAcknowledge,
    ordered: destination.ordered,
  };
}

const WHOLE_NUMBER = /^\d+$/;

/** A number field's text: empty → absent, digits → the number, anything else → a problem to show on the field. */
function readNumber(text: string): number | undefined | "invalid" {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return WHOLE_NUMBER.test(trimmed) ? Number(trimmed) : "invalid";
}

const isBlankRow = (row: HeaderRow) => row.name.trim() === "" && row.value.trim() === "";

/**
 * The request the form makes, or the problems to show first. The ranges and header rules are the contract's own
 * schema (the same messages the API would answer); what a JSON object cannot express is checked here: a value
 * without a name, and a name given twice with the same spelling (an object keeps only one of them). Empty number
 * fields are left out, so the service's default (or, when editing, the current value) applies; an empty rate
 * limit means none. Blank header rows are ignored.
 */
export function toDestinationBody(
  values: DestinationFormValues,
): { ok: true; body: DestinationBody } | { ok: false; errors: DestinationFormErrors } {
  const issues: ErrorDetail[] = [];
  const rows: (string | undefined)[] = [];
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  values.headers.forEach((row, index) => {
    if (isBlankRow(row)) return;
    const name = row.name.trim();
    if (name === "") rows[index] = "enter the header's name";
    else if (seen.has(name)) rows[index] = "is repeated (names ignore case)";
    else headers[name] = row.value.trim();
    seen.add(name);
  });

  const numbers = {
    timeoutMs: readNumber(values.timeoutMs),
    "retry.maxAttempts": readNumber(values.maxAttempts),
    "retry.maxAgeSeconds": readNumber(values.maxAgeSeconds),
    rateLimitPerSecond: readNumber(values.rateLimitPerSecond),
  };
  for (const [path, value] of Object.entries(numbers))
    if (value === "invalid") issues.push({ path, message: "must be a whole number" });
  const number = (value: number | undefined | "invalid") => (value === "invalid" ? undefined : value);

  const maxAttempts = number(numbers["retry.maxAttempts"]);
  const maxAgeSeconds = number(numbers["retry.maxAgeSeconds"]);
  const body: DestinationBody = {
    url: values.url.trim(),
    headers,
    ...(number(numbers.timeoutMs) !== undefined ? { timeoutMs: number(numbers.timeoutMs) } : {}),
    ...(maxAttempts !== undefined || maxAgeSeconds !== undefined
      ? {
          retry: {
            ...(maxAttempts !== undefined ? { maxAttempts } : {}),
            ...(maxAgeSeconds !== undefined ? { maxAgeSeconds } : {}),
          },
        }
      : {}),
    rateLimitPerSecond: number(numbers.rateLimitPerSecond) ?? null,
    autoAcknowledge: values.autoAcknowledge,
    ordered: values.ordered,
  };

  const parsed = createDestinationContract.body.safeParse(body);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String).join(".");
      // A field already refused as "not a whole number" was left out; the schema has nothing to add about it.
      if (!issues.some((known) => known.path === path)) issues.push({ path, message: issue.message });
    }
  if (issues.length === 0 && rows.every((row) => row === undefined)) return { ok: true, body };
  const errors = issuesToErrors("Check the highlighted fields.", issues, values.headers);
  rows.forEach((message, index) => {
    if (message !== undefined) errors.rows[index] ??= message;
  });
  return { ok: false, errors };
}

/** The header row a `headers.<name>` problem is about: the first with that name, or -1. */
function headerRowIndex(path: string, rows: readonly HeaderRow[]): number {
  if (!path.startsWith("headers.")) return -1;
  const name = path.slice("headers.".length);
  return rows.findIndex((row) => row.name.trim() === name);
}

/**
 * Problems (the API's details, or the contract's issues found before sending) under their fields and header rows;
 * those no field shows go to the form's message, so none is lost.
 */
function issuesToErrors(
  message: string,
  issues: readonly ErrorDetail[],
  rows: readonly HeaderRow[],
): DestinationFormErrors {
  const errors: DestinationFormErrors = { form: null, fields: {}, rows: [] };
  const other: string[] = [];
  for (const issue of issues) {
    const row = headerRowIndex(issue.path, rows);
    if (row !== -1) errors.rows[row] ??= issue.message;
    else if ((DESTINATION_FIELDS as readonly string[]).includes(issue.path))
      errors.fields[issue.path as DestinationField] ??= issue.message;
    else other.push(issue.path ? `${issue.path}: ${issue.message}` : issue.message);
  }
  if (other.length > 0) errors.form = `${message} ${other.join("; ")}`;
  return errors;
}

/** A failed create or change, as the form shows it. */
export function destinationFormErrors(error: unknown, rows: readonly HeaderRow[]): DestinationFormErrors {
  if (!(error instanceof ApiClientError) || error.details.length === 0)
    return { ...NO_ERRORS, form: errorMessage(error) };
  return issuesToErrors(error.message, error.details, rows);
}

/** Whether the errors mark anything (the form then moves the focus to the first marked input). */
export function hasErrors(errors: DestinationFormErrors): boolean {
  return errors.form !== null || Object.keys(errors.fields).length > 0 || errors.rows.some(Boolean);
}
