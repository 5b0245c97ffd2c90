import { ApiClientError } from "@/lib/client/api-client";

export interface FormErrors {
  /** A message for the whole form, or null when every problem belongs to a field. */
  form: string | null;
  /** The first message for each known field, keyed by the API's dotted path (`name`, `signing.secret`). */
  fields: Record<string, string>;
}

/** A sentence for any error a dashboard call can throw. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiClientError) {
    if (error.status === 401) return "Your session has ended. Sign in again to continue.";
    return error.message;
  }
  // fetch rejects with a TypeError when the server cannot be reached at all.
  if (error instanceof TypeError) return "Could not reach Signalbox. Check your connection and try again.";
  return error instanceof Error && error.message ? error.message : "Something went wrong. Try again.";
}

/**
 * Splits an API validation error into messages under the form's fields (`details[].path`) and one for the form;
 * problems on paths the form has no field for go to the form message so that none is lost.
 */
export function formErrors(error: unknown, knownFields: readonly string[]): FormErrors {
  if (!(error instanceof ApiClientError) || error.details.length === 0)
    return { form: errorMessage(error), fields: {} };
  const fields: Record<string, string> = {};
  const other: string[] = [];
  for (const detail of error.details) {
    if (knownFields.includes(detail.path)) fields[detail.path] ??= detail.message;
    else other.push(detail.path ? `${detail.path}: ${detail.message}` : detail.message);
  }
  if (other.length > 0) return { form: `${error.message} ${other.join("; ")}`.trim(), fields };
  return { form: null, fields };
}
