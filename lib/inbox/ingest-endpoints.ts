import { dbPool } from "@/lib/db/client";
import { createBatchQueue, type BatchQueue } from "./batch-queue";
import { eventTypeSource, type EventTypeSource } from "./event-type";
import type { SignatureScheme } from "./signatures";

const ENDPOINT_ID = /^we_[0-9A-Za-z]{1,64}$/;

/** Whether `id` has the form of an endpoint id (`we_` and base62): anything else is no endpoint's, unread. */
export function isEndpointId(id: string): boolean {
  return ENDPOINT_ID.test(id);
}

/** What ingest needs of an endpoint: whom it belongs to, how its deliveries are checked and their type is read. */
export interface IngestEndpoint {
  id: string;
  workspaceId: string;
  enabled: boolean;
  signingScheme: SignatureScheme | null;
  signingSecret: string | null;
  rejectInvalidSignatures: boolean;
  eventTypeSource: EventTypeSource | null;
  /** Deliveries are forwarded to the endpoint's destinations (a forward per destination is written with each). */
  forwarding: boolean;
  /**
   * A digest of the settings a delivery was checked against (`ENDPOINT_STATE`). The INSERT writes a row only while
   * its endpoint is enabled with this very state, so a delivery checked against settings read a moment ago is never
   * stored after the endpoint was disabled, deleted or given another secret, event type source or its first
   * destination: it is checked (and its type read) again instead.
   */
  state: string;
}

/** SQL for the digest of an endpoint row's settings that shape a stored delivery, the row being called `e`. */
export const ENDPOINT_STATE =
  "md5(row(e.signing_scheme::text, e.signing_secret, e.reject_invalid_signatures, e.event_type_header, e.event_type_path, e.forwarding)::text)";

interface EndpointRow {
  id: string;
  workspace_id: string;
  enabled: boolean;
  signing_scheme: SignatureScheme | null;
  signing_secret: string | null;
  reject_invalid_signatures: boolean;
  event_type_header: string | null;
  event_type_path: string | null;
  forwarding: boolean;
  state: string;
}

async function readEndpoints(ids: string[]): Promise<(IngestEndpoint | null)[]> {
  const { rows } = await dbPool().query<EndpointRow>(
    `SELECT e.id, e.workspace_id, e.enabled, e.signing_scheme::text AS signing_scheme, e.signing_secret,
            e.reject_invalid_signatures, e.event_type_header, e.event_type_path, e.forwarding,
            ${ENDPOINT_STATE} AS state
     FROM webhook_endpoints e WHERE e.id = ANY($1::text[])`,
    [[...new Set(ids)]],
  );
  const byId = new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        workspaceId: row.workspace_id,
        enabled: row.enabled,
        signingScheme: row.signing_scheme,
        signingSecret: row.signing_secret,
        rejectInvalidSignatures: row.reject_invalid_signatures,
        eventTypeSource: eventTypeSource(row.event_type_header, row.event_type_path),
        forwarding: row.forwarding,
        state: row.state,
      },
    ]),
  );
  return ids.map((id) => byId.get(id) ?? null);
}

/** Endpoints seen lately, by id. Bounded; an entry is only a guess that the INSERT confirms (see `state`). */
const KNOWN_ENDPOINTS_MAX = 10_000;
const KNOWN_ENDPOINT_TTL_MS = 5 * 60_000;

interface EndpointDirectory {
  lookups: BatchQueue<string, IngestEndpoint | null>;
  known: Map<string, { endpoint: IngestEndpoint; until: number }>;
}

// One per process (the launcher and the route handlers load this module separately). Lookups: up to 100 ids per
// query, each query started after every request in it arrived.
const DIRECTORY_SLOT = Symbol.for("signalbox.ingestEndpoints");

function directory(): EndpointDirectory {
  const holder = globalThis as typeof globalThis & { [DIRECTORY_SLOT]?: EndpointDirectory };
  holder[DIRECTORY_SLOT] ??= {
    lookups: createBatchQueue({ flush: readEndpoints, maxInFlight: 2, maxItems: 100, maxWeight: 100, weight: () => 1 }),
    known: new Map(),
  };
  return holder[DIRECTORY_SLOT];
}

/**
 * The endpoint with this id, enabled or not, or null when there is none. `fresh` reads the database; otherwise an
 * enabled endpoint seen in the last few minutes is answered from memory, saving a round trip per batch. That is safe
 * because a delivery's INSERT checks the endpoint again (enabled, same `state`) and the caller looks it up afresh when
 * that check fails. A disabled endpoint is read every time (so enabling it takes effect at once).
 */
export async function ingestEndpoint(id: string, { fresh }: { fresh: boolean }): Promise<IngestEndpoint | null> {
  const { known, lookups } = directory();
  const now = Date.now();
  const entry = fresh ? undefined : known.get(id);
  if (entry && entry.until > now) return entry.endpoint;
  const endpoint = await lookups.submit(id);
  known.delete(id);
  if (!endpoint?.enabled) return endpoint;
  if (known.size >= KNOWN_ENDPOINTS_MAX) known.delete(known.keys().next().value!);
  known.set(id, { endpoint, until: now + KNOWN_ENDPOINT_TTL_MS });
  return endpoint;
}
