import v8 from "node:v8";

/**
 * How far V8 lets the old generation grow past what the last full collection kept before it marks the whole heap
 * again, in percent: HEAP_GROWING_PERCENT, by default 100 (to twice that; V8's own factor comes out near 1.1–1.3 under
 * ingest load). V8 counts external memory allocated since the last full collection against that room, and ingest
 * allocates a lot of it that dies young: Node copies every body chunk it parses into a buffer of its own, up to 32 MB
 * of them between two young collections (two semi-spaces). With V8's factor the room after a full collection was
 * smaller than that, so the next marking began at once: 45–66 full collections of the 57 MB heap in a 25 s run of 100
 * concurrent 1 MiB uploads, a quarter of the app's CPU. Set here, not on the command line, so that every way of
 * starting the launcher gets it (NODE_OPTIONS may not carry it). The cost is memory: up to one more heap's worth of
 * garbage before it is collected; 0 leaves V8's own factor, for a deployment where memory matters more than CPU.
 */
export function setHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
