"use client";

import { useEffect, useRef } from "react";
import { deliveryStatus } from "../_lib/delivery-status";
import { formatBytes } from "../_lib/format";
import type { Selection } from "../_lib/selection";
import type { Delivery } from "../_lib/types";
import { RelativeTime } from "./relative-time";
import { SignatureBadge, StatusBadge } from "./status-badge";

export interface DeliveriesTableProps {
  rows: Delivery[];
  endpointNames: Map<string, string>;
  selection: Selection;
  headerState: "none" | "some" | "all";
  onToggle: (id: string) => void;
  onToggleAll: () => void;
  onOpen: (id: string) => void;
  onAcknowledge: (id: string) => void;
  /** Narrows the list to one event type (a click on a row's event type). */
  onFilterEventType: (eventType: string) => void;
}

/** An id's last 8 digits: random in every delivery id (a UUIDv7 begins with its receipt time, the same for a minute). */
function shortId(id: string): string {
  return id.slice(-8);
}

/** The deliveries, newest first. On a phone each row becomes a card (see `.deliveries-table` in globals.css). */
export function DeliveriesTable({
  rows,
  endpointNames,
  selection,
  headerState,
  onToggle,
  onToggleAll,
  onOpen,
  onAcknowledge,
  onFilterEventType,
}: DeliveriesTableProps) {
  const selectAll = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = headerState === "some";
  }, [headerState]);

  return (
    <div className="table-scroll">
      <table className="deliveries-table">
        <caption className="visually-hidden">Deliveries, newest first</caption>
        <thead>
          <tr>
            <th scope="col" className="col-select">
              <input
                ref={selectAll}
                type="checkbox"
                className="checkbox"
                aria-label="Select all deliveries on the page"
                checked={headerState === "all"}
                onChange={onToggleAll}
                disabled={rows.length === 0}
              />
            </th>
            <th scope="col">Status</th>
            <th scope="col">Received</th>
            <th scope="col">Endpoint</th>
            <th scope="col">Event</th>
            <th scope="col">Payload</th>
            <th scope="col">Source IP</th>
            <th scope="col">Content type</th>
            <th scope="col" className="num">
              Size
            </th>
            <th scope="col">Signature</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((delivery) => {
            const selected = selection.has(delivery.id);
            const endpoint = endpointNames.get(delivery.webhookEndpointId) ?? delivery.webhookEndpointId;
            const { eventType } = delivery;
            return (
              <tr
                key={delivery.id}
                className={selected ? "is-selected" : undefined}
                onClick={(event) => {
                  // Mouse convenience: a click anywhere on the row opens it, unless it hit a control.
                  if ((event.target as HTMLElement).closest("button, input, a, label")) return;
                  onOpen(delivery.id);
                }}
              >
                <td className="col-select">
                  <input
                    type="checkbox"
                    className="checkbox"
                    aria-label={`Select delivery ${shortId(delivery.id)}`}
                    checked={selected}
                    onChange={() => onToggle(delivery.id)}
                  />
                </td>
                <td data-label="Status">
                  <StatusBadge delivery={delivery} />
                </td>
                <td data-label="Received" className="nowrap">
                  <RelativeTime iso={delivery.createdAt} />
                </td>
                <td data-label="Endpoint" className="truncate" title={endpoint}>
                  {endpoint}
                </td>
                <td data-label="Event" className="mono truncate">
                  {eventType === null ? (
                    "—"
                  ) : (
                    <button
                      type="button"
                      className="cell-filter"
                      title={`Show only ${eventType}`}
                      onClick={() => onFilterEventType(eventType)}
                    >
                      {eventType}
                    </button>
                  )}
                </td>
                <td data-label="Payload" className="mono truncate delivery-preview" title={delivery.preview}>
                  {delivery.preview || "—"}
                </td>
                <td data-label="Source IP" className="mono">
                  {delivery.sourceIp}
                </td>
                <td data-label="Content type" className="mono truncate" title={delivery.contentType ?? undefined}>
                  {delivery.contentType ?? "—"}
                </td>
                <td data-label="Size" className="num nowrap">
                  {formatBytes(delivery.sizeBytes)}
                </td>
                <td data-label="Signature">
                  <SignatureBadge signature={delivery.signature} />
                </td>
                <td className="col-actions">
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => onOpen(delivery.id)}
                    aria-label={`View delivery ${shortId(delivery.id)}`}
                    aria-haspopup="dialog"
                  >
                    View
                  </button>
                  {deliveryStatus(delivery) === "pending" ? (
                    <button
                      type="button"
                      className="button button-small"
                      onClick={(event) => {
                        // The button goes away once acknowledged: keep the keyboard focus in the row, on View.
                        (event.currentTarget.previousElementSibling as HTMLElement | null)?.focus();
                        onAcknowledge(delivery.id);
                      }}
                      aria-label={`Acknowledge delivery ${shortId(delivery.id)}`}
                    >
                      Ack
                    </button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
