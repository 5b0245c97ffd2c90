"use client";

import { useEffect, type RefObject } from "react";

/** After a failed submit, moves the focus to the first field the API complained about (or the form's alert). */
export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>, error: unknown): void {
  useEffect(() => {
    if (!error) return;
    const target = form.current?.querySelector<HTMLElement>('[aria-invalid="true"], [role="alert"]');
    target?.focus();
  }, [form, error]);
}
