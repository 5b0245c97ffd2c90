"use client";

import ui from "./ui.module.css";

export interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** A message from the API for this field; marks the input invalid and is read with it. */
  error?: string;
  hint?: string;
  optional?: boolean;
  required?: boolean;
  maxLength?: number;
  multiline?: boolean;
  autoFocus?: boolean;
  /** For a single-line input: the keyboard a phone shows (`numeric` for whole numbers typed as text). */
  inputMode?: "text" | "numeric" | "url";
  placeholder?: string;
}

/** A labelled text input (or textarea) with its hint and error wired up through `aria-describedby`. */
export function TextField({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  optional,
  required,
  maxLength,
  multiline,
  autoFocus,
  inputMode,
  placeholder,
}: TextFieldProps) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  const shared = {
    id,
    className: "input",
    value,
    required,
    maxLength,
    autoFocus,
    placeholder,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy,
  };
  return (
    <div className="field">
      <label htmlFor={id}>
        {label} {optional ? <span className={ui.optional}>(optional)</span> : null}
      </label>
      {multiline ? (
        <textarea {...shared} rows={2} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input
          {...shared}
          type="text"
          inputMode={inputMode}
          autoComplete="off"
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
