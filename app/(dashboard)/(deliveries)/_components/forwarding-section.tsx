"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { useDestinationList } from "@/app/(dashboard)/_hooks/use-destination-list";
import { formatLatency } from "@/app/(dashboard)/_lib/display-format";
import { errorMessage } from "@/app/(dashboard)/_lib/form-errors";
import { useDeliveryForwarding } from "../_hooks/use-delivery-forwarding";
import { useReplayDelivery } from "../_hooks/use-replay";
import { formatBytes, formatExactTime } from "../_lib/format";
import {
  attemptCountLabel,
  attemptOutcome,
  destinationLabel,
  FORWARD_STATUS_LABELS,
  forwardTimelines,
  notForwardedReason,
  type Attempt,
  type ForwardTimeline,
} from "../_lib/forwarding";
import styles from "./forwarding.module.css";

const ALL_DESTINATIONS = "";

/**
 * The drawer's Forwarding part: each forward of the delivery (to which destination, its status, attempts and next
 * try) with its attempts as a timeline, and Replay (to every enabled destination, or one chosen). The timeline
 * refreshes itself while a forward is pending.
 */
export function ForwardingSection({ deliveryId, endpointId }: { deliveryId: string; endpointId: string }) {
  const id = useId();
  const forwarding = useDeliveryForwarding(deliveryId);
  const destinations = useDestinationList(endpointId);
  const replay = useReplayDelivery(deliveryId);
  const [target, setTarget] = useState(ALL_DESTINATIONS);
  const [replayed, setReplayed] = useState<string | null>(null);
  const urls = new Map((destinations.data ?? []).map((destination) => [destination.id, destination.url]));
  const enabled = (destinations.data ?? []).filter((destination) => destination.enabled);
  const timelines = forwarding.data ? forwardTimelines(forwarding.data.forwards, forwarding.data.attempts) : [];
  // A destination chosen, then disabled or removed meanwhile, is no longer offered: fall back to all of them.
  const chosen = enabled.some((destination) => destination.id === target) ? target : ALL_DESTINATIONS;

  function replayNow() {
    if (replay.isPending) return;
    setReplayed(null);
    replay.mutate(chosen === ALL_DESTINATIONS ? undefined : chosen, {
      onSuccess: (forwards) =>
        setReplayed(
          forwards.length === 0
            ? "Nothing was queued: the endpoint has no enabled destination."
            : `Queued again to ${forwards.length === 1 ? "1 destination" : `${forwards.length} destinations`}.`,
        ),
    });
  }

  return (
    <section aria-labelledby={`${id}-title`} className="drawer-section">
      <div className="drawer-section-head">
        <h3 id={`${id}-title`}>Forwarding</h3>
        {enabled.length > 0 ? (
          <div className="row">
            {enabled.length > 1 ? (
              <>
                <label htmlFor={`${id}-target`} className="visually-hidden">
                  Replay to
                </label>
                <select
                  id={`${id}-target`}
                  className={`select ${styles.target}`}
                  value={chosen}
                  onChange={(event) => setTarget(event.target.value)}
                >
                  <option value={ALL_DESTINATIONS}>All enabled destinations</option>
                  {enabled.map((destination) => (
                    <option key={destination.id} value={destination.id}>
                      {destination.url}
                    </option>
                  ))}
                </select>
              </>
            ) : null}
            <button
              type="button"
              className="button button-small"
              onClick={replayNow}
              aria-disabled={replay.isPending}
              aria-describedby={`${id}-replay-hint`}
            >
              {replay.isPending ? "Replaying…" : "Replay"}
            </button>
            <span id={`${id}-replay-hint`} className="visually-hidden">
              Forward this delivery again, with the same webhook-id, as a new forward retried as usual.
            </span>
          </div>
        ) : null}
      </div>

      <div role="status">{replayed ? <p className="notice">{replayed}</p> : null}</div>
      {replay.error ? (
        <p role="alert" className="alert">
          Could not replay: {errorMessage(replay.error)}
        </p>
      ) : null}

      {forwarding.isPending ? (
        <p className="muted">Loading the forwards…</p>
      ) : !forwarding.data ? (
        <div role="alert" className="alert">
          <p>Could not load the forwards: {errorMessage(forwarding.error)}</p>
          <button type="button" className="button button-small" onClick={() => void forwarding.refetch()}>
            Try again
          </button>
        </div>
      ) : timelines.length === 0 ? (
        <NotForwarded reason={notForwardedReason(destinations.data)} />
      ) : (
        <ol className={styles.forwards} aria-label="Forwards, newest first">
          {timelines.map((timeline) => (
            <li key={timeline.forward.id}>
              <ForwardCard timeline={timeline} destination={destinationLabel(timeline.forward.destinationId, urls)} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function NotForwarded({ reason }: { reason: ReturnType<typeof notForwardedReason> }) {
  if (reason === "no-destinations")
    return (
      <p className="muted">
        Not forwarded: its endpoint has no destinations. <Link href="/endpoints">Add one on the Endpoints page</Link> to
        have deliveries POSTed to your service as they arrive.
      </p>
    );
  return (
    <p className="muted">
      {reason === "all-disabled"
        ? "Not forwarded: its endpoint's destinations are switched off."
        : reason === "added-later"
          ? "Not forwarded: it arrived before its endpoint had an enabled destination. Replay forwards it now."
          : "Not forwarded."}
    </p>
  );
}

function ForwardCard({ timeline, destination }: { timeline: ForwardTimeline; destination: string }) {
  const id = useId();
  const { forward, attempts } = timeline;
  return (
    <article className={styles.forward} aria-labelledby={`${id}-title`}>
      <div className={styles.forwardHead}>
        <code id={`${id}-title`} className={styles.destination}>
          {destination}
        </code>
        <span className={`badge ${styles[`status-${forward.status}`]}`}>{FORWARD_STATUS_LABELS[forward.status]}</span>
        {forward.reason === "replay" ? <span className={`badge ${styles.replay}`}>Replay</span> : null}
      </div>
      <p className={styles.forwardMeta}>
        {attemptCountLabel(forward, attempts.length)}
        {forward.status === "pending" && forward.nextAttemptAt ? (
          <>
            {" · next attempt "}
            <time dateTime={forward.nextAttemptAt}>{formatExactTime(forward.nextAttemptAt)}</time>
          </>
        ) : null}
        {forward.completedAt ? (
          <>
            {` · ${forward.status === "succeeded" ? "delivered" : "gave up"} `}
            <time dateTime={forward.completedAt}>{formatExactTime(forward.completedAt)}</time>
          </>
        ) : null}
      </p>
      {attempts.length > 0 ? (
        <ol className={styles.timeline} aria-label={`Attempts to ${destination}`}>
          {attempts.map((attempt) => (
            <AttemptItem key={attempt.id} attempt={attempt} />
          ))}
        </ol>
      ) : null}
    </article>
  );
}

function AttemptItem({ attempt }: { attempt: Attempt }) {
  const outcome = attemptOutcome(attempt);
  const body = attempt.responseBody;
  return (
    <li className={`${styles.attempt} ${outcome.ok ? styles.ok : styles.failed}`}>
      <div className={styles.attemptLine}>
        <span className={styles.attemptNumber}>#{attempt.attemptNumber}</span>
        <time dateTime={attempt.startedAt}>{formatExactTime(attempt.startedAt)}</time>
        <span className="muted">{formatLatency(attempt.durationMs)}</span>
        <span className={styles.outcome}>
          <span className="visually-hidden">{outcome.ok ? "Succeeded: " : "Failed: "}</span>
          {outcome.label}
        </span>
      </div>
      {body === null ? null : body === "" ? (
        <p className="muted small">Empty response body</p>
      ) : (
        <details className={styles.body}>
          <summary>
            Response body ({formatBytes(new TextEncoder().encode(body).length)}
            {attempt.responseBodyTruncated ? ", the beginning only" : ""})
          </summary>
          <pre className="mono">{body}</pre>
        </details>
      )}
    </li>
  );
}
