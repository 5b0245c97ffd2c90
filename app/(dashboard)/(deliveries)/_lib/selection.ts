/**
 * Row selection of the deliveries table, as a reducer over an immutable set of ids. "The page" is the rows on
 * screen (every loaded page of the current filters); a filter change clears the selection, so a bulk action never
 * reaches rows the user can no longer see.
 */
export type Selection = ReadonlySet<string>;

export type SelectionAction =
  | { type: "toggle"; id: string }
  | { type: "toggleAllOnPage"; pageIds: readonly string[] }
  | { type: "remove"; ids: readonly string[] }
  | { type: "clear" }
  | { type: "filtersChanged" };

export const EMPTY_SELECTION: Selection = new Set<string>();

export function selectionReducer(selection: Selection, action: SelectionAction): Selection {
  switch (action.type) {
    case "toggle": {
      const next = new Set(selection);
      if (!next.delete(action.id)) next.add(action.id);
      return next;
    }
    case "toggleAllOnPage": {
      // Everything on the page selected → unselect the page; otherwise select all of it.
      const next = new Set(selection);
      if (pageSelectionState(selection, action.pageIds) === "all") for (const id of action.pageIds) next.delete(id);
      else for (const id of action.pageIds) next.add(id);
      return next;
    }
    case "remove": {
      if (!action.ids.some((id) => selection.has(id))) return selection;
      const next = new Set(selection);
      for (const id of action.ids) next.delete(id);
      return next;
    }
    case "clear":
    case "filtersChanged":
      return selection.size === 0 ? selection : EMPTY_SELECTION;
  }
}

/** The header checkbox: unchecked, indeterminate or checked. An empty page is never "all". */
export function pageSelectionState(selection: Selection, pageIds: readonly string[]): "none" | "some" | "all" {
  const selected = pageIds.filter((id) => selection.has(id)).length;
  if (selected === 0) return "none";
  return selected === pageIds.length ? "all" : "some";
}

/** The selected ids that are on the page, in page order (what a bulk action sends). */
export function selectedOnPage(selection: Selection, pageIds: readonly string[]): string[] {
  return pageIds.filter((id) => selection.has(id));
}
