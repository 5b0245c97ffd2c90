import type { z } from "zod";
import type { deliverySchema } from "@/lib/contracts/webhooks";

/** What the relay needs of a delivery to forward it (a listing with `withPayload=false` carries it all). */
export type DeliveryHeading = Pick<z.infer<typeof deliverySchema>, "id" | "eventType" | "headers" | "acknowledgedAt">;

/** A delivery waiting its turn: from a listing (its heading known) or announced live (its id only). */
export interface QueuedDelivery {
  id: string;
  heading?: DeliveryHeading;
}

/**
 * The deliveries to forward, in order, each at most once per run (`seen` remembers every id ever queued). Listings
 * fill it oldest first; live announcements that arrive while a listing runs are held (`hold`) and queued after it
 * (`release`), so a delivery found by the listing keeps its place, and one announced during the listing but absent
 * from it (newer than the listing's start) follows it. Listings wait while `capacity` deliveries are queued, so a
 * backlog of any size is read a page at a time; held announcements are ids only.
 */
export class DeliveryQueue {
  private readonly waiting: QueuedDelivery[] = [];
  private readonly seen = new Set<string>();
  private held: string[] | null = null;
  private wakers: (() => void)[] = [];

  constructor(private readonly capacity = 100) {}

  /** Hold live announcements until `release` (a listing begins). Holding twice is holding. */
  hold(): void {
    this.held ??= [];
  }

  /** Queue the held announcements the listing did not already queue, in the order they came. */
  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const id of held) this.enqueue({ id });
  }

  /** A live `delivery.created`. */
  announce(id: string): void {
    if (this.held) this.held.push(id);
    else this.enqueue({ id });
  }

  /** A delivery from a listing; waits while the queue is full (resolves at once when `signal` aborts). */
  async addListed(heading: DeliveryHeading, signal: AbortSignal): Promise<void> {
    if (this.seen.has(heading.id)) return;
    while (this.waiting.length >= this.capacity && !signal.aborted) await this.change(signal);
    if (!signal.aborted) this.enqueue({ id: heading.id, heading });
  }

  /** Acknowledged by someone else before its turn: no longer pending, so not forwarded. */
  drop(id: string): void {
    const index = this.waiting.findIndex((queued) => queued.id === id);
    if (index >= 0) this.waiting.splice(index, 1);
    this.notify();
  }

  /** The next delivery, waiting for one; null once `signal` aborts. */
  async take(signal: AbortSignal): Promise<QueuedDelivery | null> {
    while (this.waiting.length === 0 && !signal.aborted) await this.change(signal);
    if (signal.aborted) return null;
    const next = this.waiting.shift()!;
    this.notify();
    return next;
  }

  private enqueue(queued: QueuedDelivery): void {
    if (this.seen.has(queued.id)) return;
    this.seen.add(queued.id);
    this.waiting.push(queued);
    this.notify();
  }

  private notify(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const wake of wakers) wake();
  }

  private change(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        signal.removeEventListener("abort", done);
        resolve();
      };
      this.wakers.push(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }
}
