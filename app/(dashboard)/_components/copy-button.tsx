"use client";

import { useEffect, useRef, useState } from "react";
import { copyText } from "../_lib/clipboard";

/** Copies `text`, says so for a moment, and announces the result to screen readers. */
export function CopyButton({
  text,
  label,
  children = "Copy",
  className = "button button-small",
}: {
  text: string;
  label: string;
  children?: string;
  className?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy(button: HTMLButtonElement) {
    clearTimeout(timer.current);
    try {
      // Inside a modal dialog the page behind is inert: the fallback's textarea must go inside the dialog.
      await copyText(text, button.closest("dialog") ?? undefined);
      setState("copied");
    } catch {
      setState("failed");
    }
    timer.current = setTimeout(() => setState("idle"), 2500);
  }

  return (
    <span className="copy">
      <button
        type="button"
        className={className}
        aria-label={label}
        onClick={(event) => void copy(event.currentTarget)}
      >
        {state === "copied" ? "Copied" : children}
      </button>
      <span role="status" className={state === "failed" ? "field-error" : "visually-hidden"}>
        {state === "copied"
          ? "Copied to the clipboard."
          : state === "failed"
            ? "Could not copy: select the text and copy it yourself."
            : ""}
      </span>
    </span>
  );
}
