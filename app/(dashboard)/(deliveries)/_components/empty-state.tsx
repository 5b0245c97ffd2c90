"use client";

import Link from "next/link";
import { CopyButton } from "@/app/(dashboard)/_components/copy-button";
import { buildFirstWebhookCurl } from "../_lib/curl";
import type { WebhookEndpoint } from "../_lib/types";

function CurlBlock({ ingestUrl }: { ingestUrl: string }) {
  const curl = buildFirstWebhookCurl(ingestUrl);
  return (
    <div className="code-block">
      <pre>
        <code>{curl}</code>
      </pre>
      <CopyButton text={curl} label="Copy the curl command" />
    </div>
  );
}

/** What a new user does next: create an endpoint, then send it a first webhook (the curl is ready to paste). */
export function DeliveriesEmptyState({ endpoints }: { endpoints: WebhookEndpoint[] }) {
  const endpoint = endpoints.find((candidate) => candidate.enabled) ?? endpoints[0];
  return (
    <section className="card empty-state" aria-labelledby="empty-title">
      <h2 id="empty-title">No deliveries yet</h2>
      {endpoint ? (
        <>
          <p>
            Anything POSTed to an endpoint&apos;s ingest URL shows up here as it arrives, marked Pending until you
            acknowledge it. Send a first webhook to <strong>{endpoint.name}</strong> from a terminal:
          </p>
          <CurlBlock ingestUrl={endpoint.ingestUrl} />
        </>
      ) : (
        <>
          <p>Deliveries are the webhooks your endpoints receive. Two steps to your first one:</p>
          <ol className="steps">
            <li>
              <Link href="/endpoints">Create a webhook endpoint</Link>. It gets an ingest URL, the only secret a sender
              needs.
            </li>
            <li>
              Point a sender at the ingest URL, or try it with curl:
              <CurlBlock ingestUrl={`${window.location.origin}/webhooks/ingest/<endpoint-id>`} />
            </li>
          </ol>
        </>
      )}
      <p className="muted small">This page updates by itself: no need to reload.</p>
    </section>
  );
}
