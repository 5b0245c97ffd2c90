/**
 * How many body bytes the process holds at once, for all requests together, counted as bytes actually arrive (a
 * declared Content-Length costs nothing until its bytes come, so senders that trickle hold next to nothing). A reader
 * whose chunk finds the budget spent pauses (TCP flow control holds its sender back) until bytes are given back.
 *
 * So that a spent budget never deadlocks (every holder paused half-way, none able to finish and give bytes back), one
 * reader at a time may go past the capacity and finish its body: memory stays below the capacity plus one body.
 */
export interface ByteBudget {
  /**
   * Counts `bytes` that arrived for `reader`. Returns null when it may read on, else a promise that resolves once it
   * may (the reader pauses meanwhile).
   */
  take: (reader: BudgetReader, bytes: number) => Promise<void> | null;
  /** Gives back everything `reader` took (its delivery was written or refused, or it went away); cancels its wait. */
  release: (reader: BudgetReader) => void;
}

export interface BudgetReader {
  /** Bytes this reader holds. */
  held: number;
}

export function createByteBudget(capacity: number): ByteBudget {
  let used = 0;
  /** The one reader allowed past the capacity, until it gives its bytes back. */
  let overdrawn: BudgetReader | null = null;
  const waiting = new Map<BudgetReader, () => void>();

  const wakeWaiting = () => {
    for (const [reader, wake] of waiting) {
      if (used >= capacity) {
        if (overdrawn) return;
        overdrawn = reader;
      }
      waiting.delete(reader);
      wake();
    }
  };

  return {
    take: (reader, bytes) => {
      reader.held += bytes;
      used += bytes;
      if (used <= capacity || overdrawn === reader) return null;
      if (!overdrawn) {
        overdrawn = reader;
        return null;
      }
      return new Promise<void>((resolve) => waiting.set(reader, resolve));
    },
    release: (reader) => {
      waiting.delete(reader);
      used -= reader.held;
      reader.held = 0;
      if (overdrawn === reader) overdrawn = null;
      wakeWaiting();
    },
  };
}
