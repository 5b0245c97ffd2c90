"use client";

import { useEffect, useId, useRef, useState } from "react";
import { CopyButton } from "@/app/(dashboard)/_components/copy-button";
import { MAX_DECODED_BYTES } from "@/lib/contracts/webhooks";
import { useDeliveryPayload } from "../_hooks/use-delivery-payload";
import { useRawBodyText } from "../_hooks/use-raw-body-text";
import { buildReplayCurl, fallbackIngestUrl } from "../_lib/curl";
import { deliveryStatus } from "../_lib/delivery-status";
import { formatBytes, formatExactTime } from "../_lib/format";
import { downloadRawBody } from "../_lib/raw-body";
import type { Delivery, WebhookEndpoint } from "../_lib/types";
import { JsonTree } from "./json-tree";
import { parseJsonText, payloadJsonText, prettyJson } from "../_lib/json";
import { ForwardingSection } from "./forwarding-section";
import { RelativeTime } from "./relative-time";
import { SignatureBadge, StatusBadge } from "./status-badge";

/** A compressed body's `contentDecoding`: the payload below is decoded, or made from the bytes as stored. */
const DECODING_NOTES: Record<NonNullable<Delivery["contentDecoding"]>["status"], string> = {
  decoded: "decoded for the payload below",
  too_large: `not decoded: larger than ${formatBytes(MAX_DECODED_BYTES)} decoded`,
  invalid: "not decoded: corrupt or truncated",
  unsupported: "not decoded: an unsupported coding",
};

export interface DeliveryDrawerProps {
  delivery: Delivery | null;
  endpoint: WebhookEndpoint | undefined;
  onClose: () => void;
  onAcknowledge: (id: string) => void;
}

/**
 * A delivery's details in a side panel: a native modal `<dialog>` (focus stays inside, the page behind is inert,
 * Escape closes it, the focus returns to the row's button), labelled by its heading.
 */
export function DeliveryDrawer({ delivery, endpoint, onClose, onAcknowledge }: DeliveryDrawerProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const open = delivery !== null;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="drawer"
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => {
        // A click on the backdrop (the dialog box itself, outside the panel) closes it.
        if (event.target === event.currentTarget) event.currentTarget.close();
      }}
    >
      {delivery ? (
        <DrawerBody
          key={delivery.id}
          delivery={delivery}
          endpoint={endpoint}
          titleId={titleId}
          onAcknowledge={onAcknowledge}
          close={() => ref.current?.close()}
        />
      ) : null}
    </dialog>
  );
}

function DrawerBody({
  delivery,
  endpoint,
  titleId,
  onAcknowledge,
  close,
}: {
  delivery: Delivery;
  endpoint: WebhookEndpoint | undefined;
  titleId: string;
  onAcknowledge: (id: string) => void;
  close: () => void;
}) {
  const [openDepth, setOpenDepth] = useState(2);
  const [treeKey, setTreeKey] = useState(0);
  const [download, setDownload] = useState<{ state: "idle" | "loading" } | { state: "failed"; message: string }>({
    state: "idle",
  });
  const ingestUrl = endpoint?.ingestUrl ?? fallbackIngestUrl(window.location.origin, delivery.webhookEndpointId);
  const headers = Object.entries(delivery.headers).sort(([a], [b]) => a.localeCompare(b));
  const pending = deliveryStatus(delivery) === "pending";
  // The exact body makes the curl byte-faithful; until it is loaded (or if it is not text) the stored payload stands in.
  const rawText = useRawBodyText(delivery.id);
  const payload = useDeliveryPayload(delivery);
  const replaySource = payload.state === "ready" ? { ...delivery, rawPayload: payload.payload } : null;
  // The sender's JSON text (order, number text, duplicate keys) once the exact body is in; see payloadJsonText.
  const payloadText =
    payload.state === "ready" ? payloadJsonText(payload.payload, delivery.contentType, rawText.data) : null;
  const payloadTree = payloadText === null ? null : parseJsonText(payloadText);

  function fold(depth: number) {
    setOpenDepth(depth);
    setTreeKey((key) => key + 1); // remount: <details> keeps its own open state otherwise
  }

  async function handleDownload() {
    setDownload({ state: "loading" });
    try {
      await downloadRawBody(delivery.id, delivery.contentType);
      setDownload({ state: "idle" });
    } catch (error) {
      setDownload({ state: "failed", message: error instanceof Error ? error.message : "The download failed." });
    }
  }

  return (
    <div className="drawer-panel">
      <div className="drawer-head">
        <div className="drawer-title">
          <h2 id={titleId}>Delivery</h2>
          <StatusBadge delivery={delivery} />
        </div>
        <button
          type="button"
          className="button button-small button-ghost"
          onClick={close}
          aria-label="Close delivery details"
        >
          <span aria-hidden="true">✕</span>
        </button>
      </div>
      <p className="mono small muted drawer-id">{delivery.id}</p>

      <div className="drawer-actions">
        {pending ? (
          <button
            type="button"
            className="button button-primary button-small"
            onClick={(event) => {
              // The button goes away once acknowledged: move the focus to the next action rather than lose it.
              (event.currentTarget.nextElementSibling as HTMLElement | null)?.focus();
              onAcknowledge(delivery.id);
            }}
          >
            Acknowledge
          </button>
        ) : null}
        <button
          type="button"
          className="button button-small"
          onClick={() => void handleDownload()}
          disabled={download.state === "loading"}
        >
          {download.state === "loading" ? "Downloading…" : "Download raw body"}
        </button>
        {replaySource || typeof rawText.data === "string" ? (
          <CopyButton
            text={buildReplayCurl(replaySource ?? delivery, ingestUrl, rawText.data)}
            label="Copy as curl: re-send this payload to the endpoint"
          >
            Copy as curl
          </CopyButton>
        ) : null}
      </div>
      {download.state === "failed" ? (
        <p role="alert" className="alert">
          {download.message}
        </p>
      ) : null}

      <dl className="facts">
        <dt>Endpoint</dt>
        <dd>{endpoint?.name ?? <span className="mono">{delivery.webhookEndpointId}</span>}</dd>
        <dt>Event</dt>
        <dd className="mono">{delivery.eventType ?? "—"}</dd>
        <dt>Received</dt>
        <dd>
          {formatExactTime(delivery.createdAt)} (<RelativeTime iso={delivery.createdAt} />)
        </dd>
        <dt>Acknowledged</dt>
        <dd>{delivery.acknowledgedAt ? formatExactTime(delivery.acknowledgedAt) : "Not yet"}</dd>
        <dt>Source IP</dt>
        <dd className="mono">{delivery.sourceIp}</dd>
        <dt>Content type</dt>
        <dd className="mono">{delivery.contentType ?? "—"}</dd>
        {payload.state === "ready" && payload.contentDecoding ? (
          <>
            <dt>Content encoding</dt>
            <dd>
              <span className="mono">{payload.contentDecoding.encoding}</span>{" "}
              <span className="muted">({DECODING_NOTES[payload.contentDecoding.status]})</span>
            </dd>
          </>
        ) : null}
        <dt>Size</dt>
        <dd>
          {formatBytes(delivery.sizeBytes)}{" "}
          <span className="muted">({delivery.sizeBytes.toLocaleString("en")} bytes)</span>
        </dd>
        <dt>Signature</dt>
        <dd>
          <SignatureBadge signature={delivery.signature} />
        </dd>
        {delivery.query ? (
          <>
            <dt>Query</dt>
            <dd className="mono break">?{delivery.query}</dd>
          </>
        ) : null}
      </dl>

      <ForwardingSection deliveryId={delivery.id} endpointId={delivery.webhookEndpointId} />

      <section aria-labelledby={`${titleId}-payload`} className="drawer-section">
        <div className="drawer-section-head">
          <h3 id={`${titleId}-payload`}>Payload</h3>
          {payloadText !== null ? (
            <div className="row">
              <button
                type="button"
                className="button button-small button-ghost"
                onClick={() => fold(Number.POSITIVE_INFINITY)}
              >
                Expand all
              </button>
              <button type="button" className="button button-small button-ghost" onClick={() => fold(1)}>
                Collapse all
              </button>
              <CopyButton text={prettyJson(payloadText)} label="Copy the payload as JSON">
                Copy JSON
              </CopyButton>
            </div>
          ) : null}
        </div>
        {payloadTree ? (
          <JsonTree key={treeKey} value={payloadTree} openDepth={openDepth} />
        ) : payload.state === "failed" ? (
          <p role="alert" className="alert">
            Could not load the payload: {payload.message}
          </p>
        ) : (
          <p className="muted">Loading the payload…</p>
        )}
      </section>

      {payload.state === "ready" && payload.formFields && payload.formFields.length > 0 ? (
        <section aria-labelledby={`${titleId}-form`} className="drawer-section">
          <h3 id={`${titleId}-form`}>Form fields</h3>
          <NameValueTable
            rows={payload.formFields.map((field) => [
              field.name,
              "value" in field
                ? field.value
                : `File ${field.filename} (${field.type ?? "no type"}, ${formatBytes(field.size)})`,
            ])}
          />
        </section>
      ) : null}

      <section aria-labelledby={`${titleId}-headers`} className="drawer-section">
        <h3 id={`${titleId}-headers`}>Headers</h3>
        <NameValueTable rows={headers} />
      </section>
    </div>
  );
}

/** Names and values in a two-column table (headers, form fields); by position, as a form may repeat a name. */
function NameValueTable({ rows }: { rows: [string, string][] }) {
  return (
    <div className="table-scroll">
      <table className="headers-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, value], index) => (
            <tr key={index}>
              <th scope="row" className="mono">
                {name}
              </th>
              <td className="mono break">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
