"use client";

import { useEffect, useEffectEvent, useId, useMemo, useReducer, useState } from "react";
import { useAcknowledgeDeliveries, useAcknowledgeDelivery } from "../_hooks/use-acknowledge";
import { useDeliveryList } from "../_hooks/use-delivery-list";
import { useEndpointOptions } from "../_hooks/use-endpoint-options";
import { useLiveDeliveries } from "../_hooks/use-live-deliveries";
import { useNewDeliveries } from "../_hooks/use-new-deliveries";
import { findDelivery, flattenDeliveries } from "../_lib/delivery-pages";
import { STATUS_FILTERS, unacknowledgedParam, type StatusFilter } from "../_lib/delivery-status";
import { EMPTY_SELECTION, pageSelectionState, selectionReducer } from "../_lib/selection";
import type { DeliveryFilters } from "../_lib/types";
import { DeliveriesTable } from "./deliveries-table";
import { DeliveryDrawer } from "./delivery-drawer";
import { FilterActions } from "./filter-actions";
import { DeliveriesEmptyState } from "./empty-state";

type Notice = { tone: "success" | "error"; text: string } | null;

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString("en")} ${count === 1 ? one : many}`;
}

/** The Deliveries page: filters, the table, bulk and single acknowledgement, live arrivals and the detail drawer. */
export function DeliveriesView() {
  const endpointFilterId = useId();
  const statusFilterId = useId();
  const [endpointId, setEndpointId] = useState("");
  const [status, setStatus] = useState<StatusFilter>("all");
  const filters = useMemo<DeliveryFilters>(
    () => ({ endpointId: endpointId || undefined, unacknowledged: unacknowledgedParam(status) }),
    [endpointId, status],
  );
  const [selection, dispatch] = useReducer(selectionReducer, EMPTY_SELECTION);
  const [openId, setOpenId] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);

  const list = useDeliveryList(filters);
  const listIsEmpty = list.data !== undefined && list.data.pages.every((page) => page.deliveries.length === 0);
  const endpoints = useEndpointOptions({ poll: listIsEmpty });
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
  const filtered = filters.endpointId !== undefined || filters.unacknowledged !== undefined;
  const pendingTotal = endpointList
    ? endpointList
        .filter((endpoint) => !filters.endpointId || endpoint.id === filters.endpointId)
        .reduce((sum, endpoint) => sum + endpoint.pendingCount, 0)
    : null;

  function changeFilters(next: { endpointId?: string; status?: StatusFilter }) {
    if (next.endpointId !== undefined) setEndpointId(next.endpointId);
    if (next.status !== undefined) setStatus(next.status);
    dispatch({ type: "filtersChanged" });
    setOpenId(null);
    setNotice(null);
  }

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

      <div className="toolbar" role="group" aria-label="Filters">
        <div className="field field-inline">
          <label htmlFor={endpointFilterId}>Endpoint</label>
          <select
            id={endpointFilterId}
            className="select"
            value={endpointId}
            onChange={(event) => changeFilters({ endpointId: event.target.value })}
          >
            <option value="">All endpoints</option>
            {(endpointList ?? []).map((endpoint) => (
              <option key={endpoint.id} value={endpoint.id}>
                {endpoint.name}
                {endpoint.pendingCount ? ` (${endpoint.pendingCount.toLocaleString("en")} pending)` : ""}
              </option>
            ))}
          </select>
        </div>
        <div className="field field-inline">
          <label htmlFor={statusFilterId}>Status</label>
          <select
            id={statusFilterId}
            className="select"
            value={status}
            onChange={(event) => changeFilters({ status: event.target.value as StatusFilter })}
          >
            {STATUS_FILTERS.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
        <FilterActions filters={filters} filtered={filtered} onNotice={setNotice} />
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
      ) : rows.length === 0 ? (
        filtered ? (
          <section className="card empty-state" aria-labelledby="no-match-title">
            <h2 id="no-match-title">No deliveries match these filters</h2>
            <p className="muted">New ones that match will appear here by themselves.</p>
            <button
              type="button"
              className="button"
              onClick={() => {
                changeFilters({ endpointId: "", status: "all" });
              }}
            >
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
                {list.isFetchingNextPage ? "Loading…" : "Load more"}
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
