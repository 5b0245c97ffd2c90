/**
 * Batching for the ingest hot path (group commit for writes, grouped reads for lookups): items that arrive while
 * earlier batches are in flight wait and then go to the database together, in one statement. Nothing is delayed on
 * purpose: a flush starts as soon as fewer than `maxInFlight` flushes are running, so a lone item goes at once, and
 * under load each flush takes everything that queued up meanwhile (up to `maxItems` / `maxWeight`). Every caller's
 * promise settles with the outcome of the flush that carried its own item, a flush that started after the item
 * arrived; nothing is cached or kept afterwards, and nothing is shared across processes.
 */
export interface BatchQueueOptions<Item, Outcome> {
  /** Writes a batch; answers one outcome per item, in order, or throws (then the batch's callers are rejected). */
  flush: (items: Item[]) => Promise<Outcome[]>;
  maxInFlight: number;
  /**
   * While a flush is in flight, start another only once a whole batch (`maxItems` or `maxWeight`) is waiting. Small
   * items then go in few large batches (fewer commits, less work per item), while large ones, which fill a batch
   * quickly, still go to the database side by side. Off: a flush starts whenever fewer than `maxInFlight` run.
   */
  overlapFullBatchesOnly?: boolean;
  maxItems: number;
  /** A batch's total weight stays at most this much (an item heavier than that is written alone). */
  maxWeight: number;
  weight: (item: Item) => number;
}

interface Waiting<Item, Outcome> {
  item: Item;
  resolve: (outcome: Outcome) => void;
  reject: (error: unknown) => void;
}

export interface BatchQueue<Item, Outcome> {
  /** Resolves with this item's outcome once the batch that carried it was written. */
  submit: (item: Item) => Promise<Outcome>;
}

export function createBatchQueue<Item, Outcome>(options: BatchQueueOptions<Item, Outcome>): BatchQueue<Item, Outcome> {
  const queue: Waiting<Item, Outcome>[] = [];
  let queuedWeight = 0;
  let inFlight = 0;

  const takeBatch = (): Waiting<Item, Outcome>[] => {
    const batch: Waiting<Item, Outcome>[] = [];
    let weight = 0;
    while (queue.length && batch.length < options.maxItems) {
      const next = options.weight(queue[0]!.item);
      if (batch.length && weight + next > options.maxWeight) break;
      batch.push(queue.shift()!);
      weight += next;
    }
    queuedWeight -= weight;
    return batch;
  };

  const fullBatchWaiting = () => queue.length >= options.maxItems || queuedWeight >= options.maxWeight;
  const mayStart = (): boolean =>
    inFlight === 0 || (inFlight < options.maxInFlight && (!options.overlapFullBatchesOnly || fullBatchWaiting()));

  const pump = (): void => {
    while (queue.length && mayStart()) {
      const batch = takeBatch();
      inFlight += 1;
      void options
        .flush(batch.map((waiting) => waiting.item))
        .then(
          (outcomes) => batch.forEach((waiting, index) => waiting.resolve(outcomes[index]!)),
          (error: unknown) => batch.forEach((waiting) => waiting.reject(error)),
        )
        .finally(() => {
          inFlight -= 1;
          pump();
        });
    }
  };

  return {
    submit: (item) =>
      new Promise<Outcome>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        queuedWeight += options.weight(item);
        pump();
      }),
  };
}
