"use client";

import { useEffect, useRef } from "react";

/**
 * After an action that removes the focused control (a deleted card, a revoked key's button), the focus falls to
 * <body> and a keyboard user starts over from the top. `rescueFocusTo(element)` arms a fallback: after the owner's next
 * renders, once the focus has actually fallen (a modal dialog may still hold it while it closes), it goes to
 * `element`. The owner must re-render in the same update that removes the control (e.g. by setting a status).
 */
export function useFocusRescue(): (element: HTMLElement | null) => void {
  const target = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!target.current) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    target.current.focus();
    target.current = null;
  });
  return (element) => {
    target.current = element;
  };
}
