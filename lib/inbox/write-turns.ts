/*
 * Spreads the writes of a burst over turns of the event loop: one event for a workspace with a thousand open streams
 * is a thousand socket writes, tens of milliseconds in one go. At most WRITES_PER_TURN run per turn; the rest wait
 * for the next (setImmediate, after pending I/O), so other requests are served in between. First in, first out: the
 * texts of one stream keep their order.
 */
const WRITES_PER_TURN = 50;

const queue: (() => void)[] = [];
let scheduled = false;

function drain(): void {
  for (const write of queue.splice(0, WRITES_PER_TURN)) write();
  scheduled = queue.length > 0;
  if (scheduled) setImmediate(drain);
}

/** Runs `write` in a later turn of the event loop, after the writes queued before it. */
export function inWriteTurn(write: () => void): void {
  queue.push(write);
  if (scheduled) return;
  scheduled = true;
  setImmediate(drain);
}
