"use client";

import { Fragment, type ReactNode } from "react";
import { useWorkspaceGeneration } from "../_hooks/use-workspace";

/** Remounts the page when the workspace changes, so no page state (selection, filters, dialogs) outlives it. */
export function WorkspaceScope({ children }: { children: ReactNode }) {
  const generation = useWorkspaceGeneration();
  return <Fragment key={generation}>{children}</Fragment>;
}
