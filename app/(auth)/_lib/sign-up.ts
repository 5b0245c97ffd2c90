import { z } from "zod";
import { ApiError } from "@/lib/errors";

/** What the sign-up page and action say when SIGNUP is not `open`. */
export const SIGN_UP_CLOSED =
  "Sign-up is closed on this server. Ask an owner of a workspace here for an invitation link, or its operator for a sign-up invitation.";

/** The sign-up form's fields, checked on the server before `createAccount` (which checks the password again). */
export function signUpSchema(minPasswordLength: number) {
  return z.object({
    name: z
      .string()
      .trim()
      .max(100, { error: "Use at most 100 characters." })
      .transform((value) => value || undefined),
    email: z
      .string()
      .trim()
      .max(254, { error: "That email address is too long." })
      .pipe(z.email({ error: "Enter an email address like you@example.com." })),
    password: z
      .string()
      .min(minPasswordLength, { error: `Use at least ${minPasswordLength} characters.` })
      .max(1000, { error: "Use at most 1000 characters." }),
    workspaceName: z
      .string()
      .trim()
      .min(1, { error: "Name your workspace." })
      .max(100, { error: "Use at most 100 characters." }),
  });
}

export type SignUpField = "name" | "email" | "password" | "workspaceName";

export type SignUpResult =
  { ok: true; workspaceId: string } | { ok: false; message: string; fieldErrors: Partial<Record<SignUpField, string>> };

const FIELDS: readonly SignUpField[] = ["name", "email", "password", "workspaceName"];

/** Field errors from `{ path, message }` details (zod issues or the API's error details); the first per field wins. */
export function fieldErrorsFrom(
  details: readonly { path: string; message: string }[],
): Partial<Record<SignUpField, string>> {
  const errors: Partial<Record<SignUpField, string>> = {};
  for (const detail of details) {
    const field = FIELDS.find((name) => name === detail.path);
    if (field && !errors[field]) errors[field] = detail.message;
  }
  return errors;
}

/** The API's detail messages are phrased after the field ("is taken"); a form shows them as sentences. */
export function sentence(field: SignUpField, message: string): string {
  if (/^[A-Z]/.test(message)) return message;
  const label = {
    name: "Your name",
    email: "This email",
    password: "The password",
    workspaceName: "The workspace name",
  }[field];
  return `${label} ${message}.`.replace(/\.\.$/, ".");
}

/** A form whose fields failed their schema, as the form's result: one message per field. */
export function invalidFieldsResult(error: z.ZodError): Extract<SignUpResult, { ok: false }> {
  return {
    ok: false,
    message: "Check the highlighted fields.",
    fieldErrors: fieldErrorsFrom(error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }))),
  };
}

/**
 * A refusal from lib/auth (an ApiError below 500: a taken email, a used invitation link) as the form's result, its
 * field messages as sentences. Anything else is a real failure and is thrown again.
 */
export function refusalResult(error: unknown): Extract<SignUpResult, { ok: false }> {
  if (!(error instanceof ApiError) || error.status >= 500) throw error;
  const fieldErrors = fieldErrorsFrom(error.details ?? []);
  for (const field of Object.keys(fieldErrors) as SignUpField[])
    fieldErrors[field] = sentence(field, fieldErrors[field]!);
  return { ok: false, message: error.message, fieldErrors };
}
