"use client";

import { useEffect, useEffectEvent, useMemo, useReducer, useState } from "react";
import { DELIVERY_SCAN_ROWS } from "@/lib/contracts/webhooks";
import { useAcknowledgeDeliveries, useAcknowledgeDelivery } from "../_hooks/use-acknowledge";
import { useDeliveryList } from "../_hooks/use-delivery-list";
import { useEndpointOptions } from "../_hooks/use-endpoint-options";
import { useEventTypes } from "../_hooks/use-event-types";
import { useLiveDeliveries } from "../_hooks/use-live-deliveries";
import { useNewDeliveries } from "../_hooks/use-new-deliveries";
import { useUrlFilters } from "../_hooks/use-url-filters";
import { findDelivery, flattenDeliveries } from "../_lib/delivery-pages";
import { eventTypeChoices } from "../_lib/event-type-choices";
import { EMPTY_SELECTION, pageSelectionState, selectionReducer } from "../_lib/selection";
import { NO_FILTERS, isFiltered, searchesContent, toDeliveryFilters } from "../_lib/url-filters";
import { DeliveriesTable } from "./deliveries-table";
import { DeliveryFilterBar } from "./delivery-filters";
import { DeliveryDrawer } from "./delivery-drawer";
import { FilterActions } from "./filter-actions";
import { DeliveriesEmptyState } from "./empty-state";

type Notice = { tone: "success" | "error"; text: string } | null;

/** Windows a content search looks through by itself while it has found nothing; then the user asks for more. */
const AUTO_SEARCH_WINDOWS = 3;

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString("en")} ${count === 1 ? one : many}`;
}

/** The Deliveries page: filters, the table, bulk and single acknowledgement, live arrivals and the detail drawer. */
export function DeliveriesView() {
  const { view, update } = useUrlFilters();
  const filters = useMemo(() => toDeliveryFilters(view), [view]);
  const [selection, dispatch] = useReducer(selectionReducer, EMPTY_SELECTION);
  const [openId, setOpenId] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  // Other filters (a link, Back, the filter bar): the selection and the open delivery belonged to the old list.
  const filterKey = JSON.stringify(filters);
  const [listedKey, setListedKey] = useState(filterKey);
  if (filterKey !== listedKey) {
    setListedKey(filterKey);
    dispatch({ type: "filtersChanged" });
    setOpenId(null);
    setNotice(null);
  }

  const list = useDeliveryList(filters);
  const listIsEmpty = list.data !== undefined && list.data.pages.every((page) => page.deliveries.length === 0);
  const endpoints = useEndpointOptions({ poll: listIsEmpty });
  const eventTypes = useEventTypes(filters.endpointId);
  const arrivals = useNewDeliveries(filters, list.data, list.dataUpdatedAt);
  useLiveDeliveries(filters);
  const acknowledgeOne = useAcknowledgeDelivery(filters);
  const acknowledgeMany = useAcknowledgeDeliveries(filters);

  // An empty list takes new deliveries at once (nothing can move under the cursor there).
  const mergeArrivals = useEffectEvent(() => arrivals.merge());
  useEffect(() => {
    if (arrivals.autoMerge) mergeArrivals();
  }, [arrivals.autoMerge]);

  const rows = flattenDeliveries(list.data);
  const pageIds = rows.map((row) => row.id);
  const headerState = pageSelectionState(selection, pageIds);
  const selectedRows = rows.filter((row) => selection.has(row.id));
  const selectedPending = selectedRows.filter((row) => row.acknowledgedAt === null).map((row) => row.id);
  const endpointList = endpoints.data?.endpoints;
  const endpointNames = new Map((endpointList ?? []).map((endpoint) => [endpoint.id, endpoint.name]));
  const openDelivery = openId ? (findDelivery(list.data, openId) ?? null) : null;
  const eventTypeOptions = eventTypeChoices(
    eventTypes.data?.eventTypes ?? [],
    rows.map((row) => row.eventType),
    view.eventType,
  );
  const filtered = isFiltered(view);
  const contentSearch = searchesContent(filters);
  const pagesLoaded = list.data?.pages.length ?? 0;
  const lastPageEmpty = list.data?.pages.at(-1)?.deliveries.length === 0;
  // A content search pages through windows of deliveries: nothing in the first few is no answer yet, so look on.
  const searchOn =
    contentSearch &&
    rows.length === 0 &&
    list.hasNextPage &&
    !list.isFetchingNextPage &&
    !list.isFetchNextPageError &&
    pagesLoaded < AUTO_SEARCH_WINDOWS;
  const fetchNext = useEffectEvent(() => void list.fetchNextPage());
  useEffect(() => {
    if (searchOn) fetchNext();
  }, [searchOn, pagesLoaded]);
  const pendingTotal = endpointList
    ? endpointList
        .filter((endpoint) => !filters.endpointId || endpoint.id === filters.endpointId)
        .reduce((sum, endpoint) => sum + endpoint.pendingCount, 0)
    : null;

  function acknowledge(id: string) {
    setNotice(null);
    acknowledgeOne.mutate(id, {
      onError: (error) => setNotice({ tone: "error", text: `Could not acknowledge the delivery: ${error.message}` }),
    });
  }

  function acknowledgeSelected() {
    const ids = selectedPending;
    if (ids.length === 0) return;
    setNotice(null);
    acknowledgeMany.mutate(ids, {
      onSuccess: (result) => {
        dispatch({ type: "clear" });
        const parts = [`Acknowledged ${plural(result.acknowledged.length, "delivery", "deliveries")}.`];
        const already = result.alreadyAcknowledged.length;
        if (already)
          parts.push(`${already.toLocaleString("en")} ${already === 1 ? "was" : "were"} acknowledged already.`);
        if (result.notFound.length)
          parts.push(`${plural(result.notFound.length, "delivery", "deliveries")} no longer exist.`);
        setNotice({ tone: "success", text: parts.join(" ") });
      },
      onError: (error) => {
        dispatch({ type: "remove", ids: error.committed });
        setNotice({ tone: "error", text: `Could not acknowledge the selected deliveries: ${error.message}` });
      },
    });
  }

  return (
    <div className="page-wide">
      <div className="page-header">
        <div>
          <h1>Deliveries</h1>
          <p className="lead">
            Webhooks your endpoints received, newest first.
            {pendingTotal !== null ? (
              <>
                {" "}
                <strong>{plural(pendingTotal, "pending delivery", "pending deliveries")}</strong>
                {filters.endpointId ? " on this endpoint." : "."}
              </>
            ) : null}
          </p>
        </div>
      </div>

      <DeliveryFilterBar
        view={view}
        update={update}
        endpoints={endpointList ?? []}
        eventTypes={eventTypeOptions}
        eventTypesTruncated={eventTypes.data?.truncated ?? false}
      />

      <div className="toolbar" role="group" aria-label="Selection">
        <div className="bulk-bar" aria-live="polite">
          {selection.size > 0 ? (
            <>
              <span className="bulk-count">{plural(selectedRows.length, "selected", "selected")}</span>
              <button
                type="button"
                className="button button-primary"
                onClick={acknowledgeSelected}
                disabled={selectedPending.length === 0 || acknowledgeMany.isPending}
              >
                {acknowledgeMany.isPending
                  ? "Acknowledging…"
                  : selectedPending.length
                    ? `Acknowledge ${selectedPending.length.toLocaleString("en")}`
                    : "Acknowledge"}
              </button>
              <button type="button" className="button button-ghost" onClick={() => dispatch({ type: "clear" })}>
                Clear selection
              </button>
            </>
          ) : null}
        </div>
        <FilterActions filters={filters} filtered={filtered} onNotice={setNotice} />
      </div>

      {/* Zero-height and sticky: the indicator floats over the table, so showing it never moves a row. */}
      <div className="new-anchor" aria-live="polite">
        {arrivals.count > 0 && !arrivals.autoMerge ? (
          <button type="button" className="new-indicator" onClick={arrivals.merge}>
            <span aria-hidden="true" className="dot" />
            {arrivals.overflow
              ? `${arrivals.count}+ new deliveries — reload the list`
              : `${plural(arrivals.count, "new delivery", "new deliveries")} — show`}
          </button>
        ) : null}
      </div>

      {list.isPending || (rows.length === 0 && endpoints.isPending) ? (
        <p className="card muted" role="status">
          Loading deliveries…
        </p>
      ) : !list.data ? (
        <div className="alert" role="alert">
          <p>Could not load deliveries: {list.error?.message}</p>
          <button type="button" className="button button-small" onClick={() => void list.refetch()}>
            Try again
          </button>
        </div>
      ) : rows.length === 0 && contentSearch && list.hasNextPage ? (
        <section className="card empty-state" aria-labelledby="searching-title" aria-busy={list.isFetchingNextPage}>
          <h2 id="searching-title">No matches in the deliveries searched so far</h2>
          <p className="muted">
            Looked through up to {plural(pagesLoaded * DELIVERY_SCAN_ROWS, "delivery", "deliveries")}, newest first (
            {DELIVERY_SCAN_ROWS.toLocaleString("en")} a step); older ones may still match.
          </p>
          <button
            type="button"
            className="button"
            onClick={() => void list.fetchNextPage()}
            disabled={list.isFetchingNextPage}
          >
            {list.isFetchingNextPage ? "Searching…" : "Keep searching"}
          </button>
          {list.isFetchNextPageError ? (
            <p role="alert" className="alert">
              Could not search further: {list.error?.message}
            </p>
          ) : null}
        </section>
      ) : rows.length === 0 ? (
        filtered ? (
          <section className="card empty-state" aria-labelledby="no-match-title">
            <h2 id="no-match-title">No deliveries match these filters</h2>
            <p className="muted">New ones that match will appear here by themselves.</p>
            <button type="button" className="button" onClick={() => update(NO_FILTERS)}>
              Show all deliveries
            </button>
          </section>
        ) : (
          <DeliveriesEmptyState endpoints={endpointList ?? []} />
        )
      ) : (
        <>
          <DeliveriesTable
            rows={rows}
            endpointNames={endpointNames}
            selection={selection}
            headerState={headerState}
            onToggle={(id) => dispatch({ type: "toggle", id })}
            onToggleAll={() => dispatch({ type: "toggleAllOnPage", pageIds })}
            onOpen={setOpenId}
            onAcknowledge={acknowledge}
            onFilterEventType={(eventType) => update({ eventType })}
          />
          <div className="list-footer">
            <span className="muted small">Showing {plural(rows.length, "delivery", "deliveries")}</span>
            {list.hasNextPage ? (
              <button
                type="button"
                className="button"
                onClick={() => void list.fetchNextPage()}
                disabled={list.isFetchingNextPage}
              >
                {list.isFetchingNextPage
                  ? "Loading…"
                  : contentSearch && lastPageEmpty
                    ? "No matches in the last step — keep searching"
                    : "Load more"}
              </button>
            ) : (
              <span className="muted small">That is everything.</span>
            )}
          </div>
          {list.isFetchNextPageError ? (
            <p role="alert" className="alert">
              Could not load more: {list.error?.message}
            </p>
          ) : null}
        </>
      )}

      {/* Outcomes of actions appear over the page (fixed), not above the table: no row moves after a click. */}
      <div className="toasts">
        {notice ? (
          <p
            role={notice.tone === "error" ? "alert" : "status"}
            className={`toast ${notice.tone === "error" ? "toast-error" : ""}`}
          >
            <span>{notice.text}</span>
            <button type="button" className="button-link" onClick={() => setNotice(null)}>
              Dismiss
            </button>
          </p>
        ) : null}
      </div>

      <DeliveryDrawer
        delivery={openDelivery}
        endpoint={
          openDelivery ? endpointList?.find((endpoint) => endpoint.id === openDelivery.webhookEndpointId) : undefined
        }
        onClose={() => setOpenId(null)}
        onAcknowledge={acknowledge}
      />
    </div>
  );
}
