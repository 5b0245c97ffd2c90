"use client";

import { Fragment, useId, useState } from "react";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { formatCount, formatDateTime } from "@/app/(dashboard)/_lib/display-format";
import { errorMessage } from "@/app/(dashboard)/_lib/form-errors";
import { REJECTION_RING_SIZE } from "@/lib/contracts/rejections";
import { useRejections, type Rejection } from "../_hooks/use-rejections";
import { describeRejectionBody } from "../_lib/rejection-body";
import styles from "./endpoints.module.css";

const REASON_LABELS: Record<Rejection["reason"], string> = {
  invalid_signature: "Invalid signature",
  endpoint_disabled: "Endpoint disabled",
  method_not_allowed: "Method not allowed",
  body_too_slow: "Body too slow",
  payload_too_large: "Body too large",
  rate_limited: "Rate limited",
};

/** What was kept of one refused request: its message, headers and the start of its body. */
function RejectionDetails({ rejection }: { rejection: Rejection }) {
  const body = describeRejectionBody(rejection.bodyPreview, rejection.bodyBytesRead);
  const headers = Object.entries(rejection.headers);
  return (
    <div className={styles.rejectionDetails}>
      <p>
        <strong>{rejection.method}</strong>
        {rejection.query ? <code>?{rejection.query}</code> : null} — {rejection.message}
      </p>
      <h4>Headers</h4>
      <pre className={styles.rejectionPre}>{headers.map(([name, value]) => `${name}: ${value}`).join("\n")}</pre>
      <h4>Body</h4>
      {body ? (
        <>
          <pre className={styles.rejectionPre}>{body.text}</pre>
          <p className="hint">
            {formatCount(rejection.bodyBytesRead)} bytes read before the refusal
            {body.truncated ? "; the first 4 KB are kept" : ""}
            {body.binary ? "; not text, shown in hex" : ""}.
          </p>
        </>
      ) : (
        <p className="hint">None read: the request was refused before its body.</p>
      )}
    </div>
  );
}

/** The ingest requests an endpoint refused lately (the "Rejected" part of its card), loaded when opened. */
export function RejectionsSection({ endpointId, endpointName }: { endpointId: string; endpointName: string }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [expanded, setExpanded] = useState<string | null>(null);
  const list = useRejections(endpointId, open);

  return (
    <section className={styles.destinations} aria-labelledby={`${id}-title`}>
      <div className={styles.destinationsHead}>
        <h3 id={`${id}-title`}>Rejected</h3>
        <button
          type="button"
          className="button button-small"
          aria-expanded={open}
          aria-controls={open ? `${id}-list` : undefined}
          aria-describedby={`${id}-title`}
          onClick={() => setOpen(!open)}
        >
          {open ? "Hide rejected requests" : "Show rejected requests"}
        </button>
      </div>
      {open ? (
        <div id={`${id}-list`} className={styles.result}>
          {list.isPending ? (
            <p className={ui.muted}>Loading rejected requests…</p>
          ) : list.isError && !list.data ? (
            <div role="alert" className={ui.alert}>
              <p>Could not load the rejected requests: {errorMessage(list.error)}</p>
              <button type="button" className="button button-small" onClick={() => void list.refetch()}>
                Try again
              </button>
            </div>
          ) : list.rejections.length === 0 ? (
            <p className="hint">
              None: requests this endpoint refuses (bad signature, too large, rate limited, disabled, wrong method) show
              here.
            </p>
          ) : (
            <>
              <p className="hint">
                The last {REJECTION_RING_SIZE} are kept: {formatCount(list.recordedCount)} recorded in all
                {list.notRecordedCount > 0
                  ? `, and ${formatCount(list.notRecordedCount)} more were not recorded (only a few a second are, under a flood)`
                  : ""}
                .
              </p>
              <div className={ui.tableWrap}>
                <table className={ui.table}>
                  <caption className="visually-hidden">Rejected requests of {endpointName}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Time</th>
                      <th scope="col">Status</th>
                      <th scope="col">Reason</th>
                      <th scope="col">Source IP</th>
                      <th scope="col">
                        <span className="visually-hidden">Details</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.rejections.map((rejection) => (
                      <Fragment key={rejection.id}>
                        <tr>
                          <td>{formatDateTime(rejection.createdAt)}</td>
                          <td className={ui.num}>{rejection.status}</td>
                          <td>{REASON_LABELS[rejection.reason]}</td>
                          <td className={ui.mono}>{rejection.sourceIp}</td>
                          <td>
                            <button
                              type="button"
                              className="button button-small"
                              aria-expanded={expanded === rejection.id}
                              aria-controls={expanded === rejection.id ? `${id}-${rejection.id}` : undefined}
                              onClick={() => setExpanded(expanded === rejection.id ? null : rejection.id)}
                            >
                              {expanded === rejection.id ? "Hide" : "Details"}
                            </button>
                          </td>
                        </tr>
                        {expanded === rejection.id ? (
                          <tr id={`${id}-${rejection.id}`}>
                            <td colSpan={5}>
                              <RejectionDetails rejection={rejection} />
                            </td>
                          </tr>
                        ) : null}
                      </Fragment>
                    ))}
                  </tbody>
                </table>
              </div>
              <div className={styles.loadMore}>
                {list.hasNextPage ? (
                  <button
                    type="button"
                    className="button button-small"
                    aria-disabled={list.isFetchingNextPage}
                    onClick={() => !list.isFetchingNextPage && void list.fetchNextPage()}
                  >
                    {list.isFetchingNextPage ? "Loading…" : "Load more"}
                  </button>
                ) : null}
                <button
                  type="button"
                  className="button button-small"
                  aria-disabled={list.isFetching}
                  onClick={() => !list.isFetching && void list.refetch()}
                >
                  Refresh
                </button>
              </div>
            </>
          )}
        </div>
      ) : null}
    </section>
  );
}
