"use client";

import ui from "@/app/(dashboard)/_components/ui.module.css";
import { isSigningScheme, SIGNING_SCHEME_OPTIONS, SIGNING_SCHEMES, type SigningScheme } from "../_lib/signing-schemes";

export interface SigningValues {
  scheme: SigningScheme;
  secret: string;
  rejectInvalid: boolean;
}

export const SIGNING_FIELDS = ["signing.scheme", "signing.secret", "signing.rejectInvalid"] as const;

/** Scheme, secret and "refuse invalid" inputs, shared by the create form and the signature settings. */
export function SigningFields({
  idPrefix,
  values,
  onChange,
  errors,
  secretHint,
}: {
  idPrefix: string;
  values: SigningValues;
  onChange: (values: SigningValues) => void;
  errors: Record<string, string>;
  /** Extra words under the secret, e.g. that a stored secret must be entered again. */
  secretHint?: string;
}) {
  const schemeError = errors["signing.scheme"];
  const secretError = errors["signing.secret"];
  const rejectError = errors["signing.rejectInvalid"];
  return (
    <>
      <div className={ui.twoColumns}>
        <div className="field">
          <label htmlFor={`${idPrefix}-scheme`}>Sender&apos;s signature scheme</label>
          <select
            id={`${idPrefix}-scheme`}
            className={`select ${ui.fill}`}
            value={values.scheme}
            onChange={(event) =>
              isSigningScheme(event.target.value) && onChange({ ...values, scheme: event.target.value })
            }
            aria-invalid={schemeError ? true : undefined}
            aria-describedby={schemeError ? `${idPrefix}-scheme-error` : undefined}
          >
            {SIGNING_SCHEME_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          {schemeError ? (
            <p id={`${idPrefix}-scheme-error`} className="field-error">
              {schemeError}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={`${idPrefix}-secret`}>Signing secret</label>
          <input
            id={`${idPrefix}-secret`}
            className="input mono"
            value={values.secret}
            onChange={(event) => onChange({ ...values, secret: event.target.value })}
            required
            maxLength={500}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={secretError ? true : undefined}
            aria-describedby={`${idPrefix}-secret-hint${secretError ? ` ${idPrefix}-secret-error` : ""}`}
          />
          <p id={`${idPrefix}-secret-hint`} className="hint">
            {SIGNING_SCHEMES[values.scheme].secretHint}
            {secretHint ? ` ${secretHint}` : ""}
          </p>
          {secretError ? (
            <p id={`${idPrefix}-secret-error`} className="field-error">
              {secretError}
            </p>
          ) : null}
        </div>
      </div>
      <div className="field">
        <label className={ui.check}>
          <input
            type="checkbox"
            checked={values.rejectInvalid}
            onChange={(event) => onChange({ ...values, rejectInvalid: event.target.checked })}
            aria-describedby={`${idPrefix}-reject-hint${rejectError ? ` ${idPrefix}-reject-error` : ""}`}
          />
          <span>Refuse deliveries with a missing or invalid signature</span>
        </label>
        <p id={`${idPrefix}-reject-hint`} className="hint">
          Refused deliveries get 401 and are not stored. Unchecked, they are stored and marked as failing the check.
        </p>
        {rejectError ? (
          <p id={`${idPrefix}-reject-error`} className="field-error">
            {rejectError}
          </p>
        ) : null}
      </div>
    </>
  );
}
