import { Logger } from "graphile-worker";

/**
 * graphile-worker's log, reduced to what an operator acts on: its warnings and errors, one line each on stderr. Its
 * info and debug lines (every job started and completed) would drown the service's own log.
 */
export const quietJobQueueLogger = new Logger(() => (level, message) => {
  if (level === "error" || level === "warning") console.warn(`[jobs] ${message}`);
});
