"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { filterViewSearch, readFilterView, type FilterView } from "../_lib/url-filters";

/**
 * The page's filters, held in its URL: `view` as the URL has it, and `update`, which navigates to the URL of the
 * changed view. `push` (the default) makes a history entry, so Back returns to the previous filters; `replace` amends
 * the current one (each debounced keystroke of a search is not a step back).
 */
export function useUrlFilters() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const view = useMemo(() => readFilterView(params), [params]);
  const update = useCallback(
    (next: Partial<FilterView>, history: "push" | "replace" = "push") => {
      // The URL as it is now, not as this render saw it: a debounced change lands after others.
      const current = readFilterView(new URLSearchParams(window.location.search));
      const search = filterViewSearch({ ...current, ...next });
      if (search === filterViewSearch(current)) return;
      router[history](`${pathname}${search}`, { scroll: false });
    },
    [router, pathname],
  );
  return { view, update };
}
