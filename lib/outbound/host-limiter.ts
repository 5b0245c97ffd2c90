/*
 * A counting semaphore per host name, so one crawl never opens more than a few connections to the same site at once
 * (politeness, and no single slow site can hold every slot). Waiters are served first in, first out; a waiter whose
 * signal aborts leaves the queue. Hosts with nobody active or waiting are forgotten, so the map stays small.
 */

/** Gives the slot back; calling it more than once is harmless. */
export type ReleaseSlot = () => void;

export interface HostLimiter {
  /** Waits for a free slot for `host`; rejects with the signal's reason when it aborts first. */
  acquire(host: string, signal?: AbortSignal): Promise<ReleaseSlot>;
  /** Requests running for `host` right now. */
  active(host: string): number;
}

interface Waiter {
  grant: () => void;
}

interface HostSlots {
  active: number;
  waiters: Waiter[];
}

export function createHostLimiter(limit: number): HostLimiter {
  if (!Number.isInteger(limit) || limit < 1) throw new Error("The per-host limit must be a positive integer.");
  const hosts = new Map<string, HostSlots>();

  function releaser(key: string, slots: HostSlots): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = slots.waiters.shift();
      // The slot passes straight to the next waiter, so a newcomer cannot jump the queue in between.
      if (next !== undefined) return next.grant();
      slots.active--;
      if (slots.active === 0) hosts.delete(key);
    };
  }

  return {
    acquire(host, signal) {
      const key = host.toLowerCase();
      if (signal?.aborted) return Promise.reject(signal.reason);
      let slots = hosts.get(key);
      if (slots === undefined) {
        slots = { active: 0, waiters: [] };
        hosts.set(key, slots);
      }
      if (slots.active < limit) {
        slots.active++;
        return Promise.resolve(releaser(key, slots));
      }
      const queued = slots;
      return new Promise<ReleaseSlot>((resolve, reject) => {
        const onAbort = () => {
          const index = queued.waiters.indexOf(waiter);
          if (index !== -1) queued.waiters.splice(index, 1);
          reject(signal?.reason);
        };
        const waiter: Waiter = {
          grant: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve(releaser(key, queued));
          },
        };
        queued.waiters.push(waiter);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    active(host) {
      return hosts.get(host.toLowerCase())?.active ?? 0;
    },
  };
}
