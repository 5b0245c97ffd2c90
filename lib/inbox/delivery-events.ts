import pg from "pg";
import { env } from "@/lib/env";

const DELIVERY_CHANNEL = "signalbox_deliveries";

export interface DeliveryEvent {
  type: "delivery.created" | "delivery.acknowledged";
  workspaceId: string;
  endpointId: string;
  deliveryId: string;
}

type Listener = (event: DeliveryEvent) => void;

interface Hub {
  listeners: Map<string, Set<Listener>>;
  /** Told when the LISTEN connection is lost: what it would have heard meanwhile is gone. */
  onLost: Set<() => void>;
  client: pg.Client | null;
  connecting: Promise<void> | null;
}

// One LISTEN connection per process, shared by every open stream (the pool's connections stay free for queries).
const SLOT = Symbol.for("signalbox.deliveryEvents");
const hub = ((globalThis as Record<symbol, Hub | undefined>)[SLOT] ??= {
  listeners: new Map(),
  onLost: new Set(),
  client: null,
  connecting: null,
});

/**
 * A notification on the channel: one acknowledged delivery, or the deliveries one INSERT created on one endpoint
 * (`deliveryIds`, announced once per statement: prisma/migrations/20261127010000_delivery_key_and_batch_notify).
 */
type Announcement = DeliveryEvent | (Omit<DeliveryEvent, "deliveryId"> & { deliveryIds: string[] });

function dispatch(payload: string | undefined): void {
  let announcement: Announcement;
  try {
    announcement = JSON.parse(payload ?? "") as Announcement;
  } catch {
    return;
  }
  const listeners = hub.listeners.get(announcement.workspaceId);
  if (!listeners?.size) return;
  const { type, workspaceId, endpointId } = announcement;
  const ids = "deliveryIds" in announcement ? announcement.deliveryIds : [announcement.deliveryId];
  for (const deliveryId of ids)
    for (const listener of listeners) listener({ type, workspaceId, endpointId, deliveryId });
}

async function connect(): Promise<void> {
  const url = env().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  // A frozen database must not hold a subscriber forever: the connect gives up like the pool's (DATABASE_CONNECT_TIMEOUT_MS).
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: env().DATABASE_CONNECT_TIMEOUT_MS });
  client.on("notification", (message) => dispatch(message.payload));
  // A lost connection is re-made on the next subscription. Every subscriber is told, so that its stream ends and its
  // client reconnects (and catches up by listing) rather than wait on a connection that hears nothing any more.
  client.on("error", () => {
    if (hub.client === client) hub.client = null;
    client.end().catch(() => {});
    const lost = [...hub.onLost];
    hub.onLost.clear();
    for (const handler of lost) handler();
  });
  await client.connect();
  await client.query(`LISTEN ${DELIVERY_CHANNEL}`);
  hub.client = client;
}

/**
 * Calls `listener` for every delivery created or acknowledged in the workspace, on any instance, until `signal` aborts
 * (also when it aborts while this waits for the LISTEN connection, or had aborted before). Resolves once events flow;
 * rejects (and unsubscribes) when the connection cannot be made. `onLost` is called (once, and the subscription ends)
 * if the connection is lost later.
 */
export async function subscribeToDeliveries(
  workspaceId: string,
  listener: Listener,
  signal: AbortSignal,
  onLost: () => void = () => {},
): Promise<void> {
  if (signal.aborted) return;
  const set = hub.listeners.get(workspaceId) ?? new Set<Listener>();
  set.add(listener);
  hub.listeners.set(workspaceId, set);
  const lost = () => {
    unsubscribe();
    onLost();
  };
  hub.onLost.add(lost);
  const unsubscribe = () => {
    hub.onLost.delete(lost);
    set.delete(listener);
    if (set.size === 0 && hub.listeners.get(workspaceId) === set) hub.listeners.delete(workspaceId);
  };
  signal.addEventListener("abort", unsubscribe, { once: true });
  if (hub.client) return;
  hub.connecting ??= connect().finally(() => {
    hub.connecting = null;
  });
  try {
    await hub.connecting;
  } catch (error) {
    signal.removeEventListener("abort", unsubscribe);
    unsubscribe();
    throw error;
  }
}

/** Listeners subscribed in this process (for tests: a closed stream leaves none behind). */
export function countDeliverySubscriptions(): number {
  let count = 0;
  for (const set of hub.listeners.values()) count += set.size;
  return count;
}
