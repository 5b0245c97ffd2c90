"use client";

import { useRef, useState } from "react";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { useFocusRescue } from "@/app/(dashboard)/_hooks/use-focus-rescue";
import { errorMessage } from "@/app/(dashboard)/_lib/form-errors";
import { useEndpointList, type WebhookEndpoint } from "../_hooks/use-endpoints";
import { CreateEndpointForm } from "./create-endpoint-form";
import { EndpointCard } from "./endpoint-card";
import { RetentionDefault } from "./retention-default";
import styles from "./endpoints.module.css";

export function EndpointsView() {
  const list = useEndpointList();
  const title = useRef<HTMLHeadingElement>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  const [creating, setCreating] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const rescueFocusTo = useFocusRescue();

  function openCreate() {
    setStatus(null);
    setCreating(true);
  }

  function cancelCreate() {
    setCreating(false);
    // The button that opened the form is back once the form is gone; give it the focus after that render.
    requestAnimationFrame(() => (newButton.current ?? title.current)?.focus());
  }

  function created(endpoint: WebhookEndpoint) {
    setCreating(false);
    setFocusId(endpoint.id);
    setStatus(
      `Created “${endpoint.name}”. Copy its ingest URL into the sender's webhook settings, or send a test delivery.`,
    );
  }

  function deleted(message: string) {
    setStatus(message);
    // The deleted card took the focused button with it.
    rescueFocusTo(title.current);
  }

  async function loadMore() {
    if (list.isFetchingNextPage) return;
    const shown = list.endpoints.length;
    const next = await list.fetchNextPage();
    // Move on to the first new endpoint: the button may be gone (last page), and reading on is what the user asked for.
    const first = next.data?.pages.flatMap((page) => page.data.endpoints)[shown];
    if (first) setFocusId(first.id);
  }

  const empty = list.data !== undefined && list.endpoints.length === 0;

  return (
    <div className={ui.page}>
      <div className={ui.header}>
        <div>
          <h1 ref={title} tabIndex={-1}>
            Webhook endpoints
          </h1>
          <p className={ui.lead}>
            Each endpoint has its own ingest URL. Senders POST to it; every delivery waits in your inbox until you
            acknowledge it.
          </p>
        </div>
        {!creating && !empty ? (
          <button ref={newButton} type="button" className="button button-primary" onClick={openCreate}>
            New endpoint
          </button>
        ) : null}
      </div>

      <div role="status" className={ui.pageStatus}>
        {status ? <p className={ui.success}>{status}</p> : null}
      </div>

      {creating ? (
        <section className={ui.card} aria-labelledby="new-endpoint-title">
          <h2 id="new-endpoint-title" className={ui.sectionTitle}>
            New endpoint
          </h2>
          <CreateEndpointForm onCreated={created} onCancel={cancelCreate} />
        </section>
      ) : null}

      {list.isPending ? (
        <div aria-busy="true" aria-label="Loading endpoints">
          <div className={ui.skeleton} />
          <div className={ui.skeleton} />
        </div>
      ) : !list.data ? (
        <div role="alert" className={ui.alert}>
          <p>Could not load the endpoints: {errorMessage(list.error)}</p>
          <button type="button" className="button button-small" onClick={() => void list.refetch()}>
            Try again
          </button>
        </div>
      ) : empty ? (
        creating ? null : (
          <section className={`${ui.card} ${ui.empty}`} aria-labelledby="endpoints-empty-title">
            <h2 id="endpoints-empty-title">No webhook endpoints yet</h2>
            <p>
              Create an endpoint for each service that sends you webhooks (Stripe, GitHub, Shopify, …), paste its ingest
              URL into that service&apos;s webhook settings, and deliveries start arriving in your inbox.
            </p>
            <button type="button" className="button button-primary" onClick={openCreate}>
              Create your first endpoint
            </button>
          </section>
        )
      ) : (
        <>
          {list.isRefetchError ? (
            <p role="alert" className={`${ui.alert} ${ui.spaced}`}>
              Could not refresh the list: {errorMessage(list.error)}
            </p>
          ) : null}
          <RetentionDefault />
          <ul className={styles.list} aria-label="Webhook endpoints">
            {list.endpoints.map((endpoint) => (
              <li key={endpoint.id}>
                <EndpointCard endpoint={endpoint} focusOnMount={endpoint.id === focusId} onDeleted={deleted} />
              </li>
            ))}
          </ul>
          {list.hasNextPage ? (
            <div className={styles.loadMore}>
              <button
                type="button"
                className="button"
                onClick={() => void loadMore()}
                aria-disabled={list.isFetchingNextPage}
              >
                {list.isFetchingNextPage ? "Loading…" : "Load more"}
              </button>
            </div>
          ) : null}
          {list.isFetchNextPageError ? (
            <p role="alert" className={`${ui.alert} ${ui.spaced}`}>
              Could not load more endpoints: {errorMessage(list.error)}
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}
