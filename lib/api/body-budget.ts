/**
 * How many body bytes the process holds at once, for all requests together, counted as bytes actually arrive (a
 * declared Content-Length costs nothing until its bytes come, so senders that trickle hold next to nothing). A reader
 * whose chunk finds the budget spent pauses (TCP flow control holds its sender back) until bytes are given back.
 *
 * Bodies already being read come first: a reader is admitted (its first chunk taken) only while the admitted readers
 * hold at most half the capacity, and admitted readers read on up to the whole of it. Without that, a hundred
 * concurrent 1 MiB uploads each got a slice of the budget, every one paused part-way, and they finished one at a time.
 *
 * So that a spent budget never deadlocks (every holder paused half-way, none able to finish and give bytes back), one
 * admitted reader at a time may go past the capacity and finish its body: memory stays below the capacity plus one
 * body (and the first chunk of each reader waiting to be admitted).
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
  /** Set once the reader was let in (see above). */
  admitted?: boolean;
  /** While it waits: what lets it read on. */
  wake?: () => void;
}

export function createByteBudget(capacity: number): ByteBudget {
  /** Bytes held by admitted readers; the first chunks of readers waiting to be admitted are not counted. */
  let admittedBytes = 0;
  /** The one reader allowed past the capacity, until it gives its bytes back. */
  let overdrawn: BudgetReader | null = null;
  // Readers waiting, oldest first; one released meanwhile (no `wake` left) is dropped at the next pass. An array, not a
  // Map: a Map churned at the body rate kept finished requests alive through young collections (lib/array-set.ts).
  const waiting: BudgetReader[] = [];

  const mayGoOn = (reader: BudgetReader): boolean => {
    if (!reader.admitted) {
      if (admittedBytes > capacity / 2) return false;
      reader.admitted = true;
      admittedBytes += reader.held;
      return true;
    }
    if (admittedBytes <= capacity || overdrawn === reader) return true;
    if (overdrawn) return false;
    overdrawn = reader;
    return true;
  };

  const wakeWaiting = () => {
    let kept = 0;
    for (const reader of waiting) {
      const wake = reader.wake;
      if (!wake) continue;
      if (mayGoOn(reader)) {
        reader.wake = undefined;
        wake();
      } else waiting[kept++] = reader;
    }
    waiting.length = kept;
  };

  return {
    take: (reader, bytes) => {
      reader.held += bytes;
      if (reader.admitted) admittedBytes += bytes;
      if (mayGoOn(reader)) return null;
      return new Promise<void>((resolve) => {
        reader.wake = resolve;
        waiting.push(reader);
      });
    },
    release: (reader) => {
      reader.wake = undefined;
      if (reader.admitted) admittedBytes -= reader.held;
      reader.held = 0;
      reader.admitted = false;
      if (overdrawn === reader) overdrawn = null;
      wakeWaiting();
    },
  };
}
