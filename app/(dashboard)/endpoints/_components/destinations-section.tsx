"use client";

import { useId, useRef, useState } from "react";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { useFocusRescue } from "@/app/(dashboard)/_hooks/use-focus-rescue";
import { useDestinationList } from "@/app/(dashboard)/_hooks/use-destination-list";
import { errorMessage } from "@/app/(dashboard)/_lib/form-errors";
import { MAX_DESTINATIONS_PER_ENDPOINT } from "@/lib/contracts/forwarding";
import { useCreateDestination } from "../_hooks/use-destinations";
import { emptyDestinationForm } from "../_lib/destination-form";
import { DestinationForm } from "./destination-form";
import { DestinationItem } from "./destination-item";
import { DestinationSecretDialog } from "./destination-secret-dialog";
import styles from "./endpoints.module.css";

/** Health changes as forwards are attempted: refreshed this often while the page is open. */
const HEALTH_POLL_MS = 10_000;

/** Where an endpoint's deliveries are forwarded: the list, adding one (its secret shown once), and their notices. */
export function DestinationsSection({ endpointId, endpointName }: { endpointId: string; endpointName: string }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const rescueFocusTo = useFocusRescue();
  const list = useDestinationList(endpointId, { pollMs: HEALTH_POLL_MS });
  const create = useCreateDestination(endpointId);
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<{ url: string; signingSecret: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const destinations = list.data ?? [];
  const full = destinations.length >= MAX_DESTINATIONS_PER_ENDPOINT;

  function closeAdd() {
    setAdding(false);
    create.reset();
    addButton.current?.focus();
  }

  function added(destination: { url: string; signingSecret: string }) {
    setAdding(false);
    create.reset();
    setNotice(`Added ${destination.url}. New deliveries are forwarded to it.`);
    setCreated({ url: destination.url, signingSecret: destination.signingSecret });
  }

  function closeSecret() {
    // Drop the secret from memory as soon as the dialog closes.
    setCreated(null);
    // The dialog gives the focus back to what opened it, the form's submit button, which is gone.
    rescueFocusTo(addButton.current ?? heading.current);
  }

  function removed(message: string) {
    setNotice(message);
    // The item's Remove button is gone once the list refreshes.
    rescueFocusTo(addButton.current ?? heading.current);
  }

  return (
    <section className={styles.destinations} aria-labelledby={`${id}-title`}>
      <div className={styles.destinationsHead}>
        <h3 id={`${id}-title`} ref={heading} tabIndex={-1}>
          Destinations
        </h3>
        {!full && list.data ? (
          <button
            ref={addButton}
            type="button"
            className="button button-small"
            aria-describedby={`${id}-title`}
            aria-expanded={adding}
            aria-controls={adding ? `${id}-add` : undefined}
            onClick={() => {
              setNotice(null);
              if (adding) closeAdd();
              else setAdding(true);
            }}
          >
            Add destination
          </button>
        ) : null}
      </div>

      {list.isPending ? (
        <p className={`${ui.muted} ${styles.result}`}>Loading destinations…</p>
      ) : !list.data ? (
        <div role="alert" className={`${ui.alert} ${styles.result}`}>
          <p>Could not load the destinations: {errorMessage(list.error)}</p>
          <button type="button" className="button button-small" onClick={() => void list.refetch()}>
            Try again
          </button>
        </div>
      ) : destinations.length === 0 && !adding ? (
        <p className={`hint ${styles.result}`}>
          None: deliveries wait in the inbox for you to fetch them. Add a destination to have each one POSTed to your
          service as it arrives, retried until it answers 2xx.
        </p>
      ) : (
        <ul className={styles.destinationList} aria-label={`Destinations of ${endpointName}`}>
          {destinations.map((destination) => (
            <li key={destination.id}>
              <DestinationItem destination={destination} onNotice={setNotice} onRemoved={removed} />
            </li>
          ))}
        </ul>
      )}
      {full ? (
        <p className={`hint ${styles.result}`}>
          An endpoint has at most {MAX_DESTINATIONS_PER_ENDPOINT} destinations: remove one to add another.
        </p>
      ) : null}

      <div role="status" className={notice ? styles.result : undefined}>
        {notice ? <p className={ui.success}>{notice}</p> : null}
      </div>

      {adding ? (
        <section id={`${id}-add`} className={styles.panel} aria-labelledby={`${id}-add-title`}>
          <h3 id={`${id}-add-title`}>New destination</h3>
          <DestinationForm
            mode="create"
            initial={emptyDestinationForm()}
            submitLabel="Create destination"
            pendingLabel="Creating…"
            pending={create.isPending}
            error={create.error}
            onSubmit={(body) => create.mutate(body, { onSuccess: added })}
            onCancel={closeAdd}
          />
        </section>
      ) : null}

      <DestinationSecretDialog created={created} onClose={closeSecret} />
    </section>
  );
}
