/** What one forwarding attempt came to: the receiver's status, or why no status came back. */
export type AttemptOutcome = { status: number } | { error: string };

export interface AttemptLine {
  time: Date;
  deliveryId: string;
  eventType: string | null;
  outcome: AttemptOutcome;
  /** From sending the request to the receiver's status line (or the failure). */
  latencyMs: number;
  /** Set when the attempt failed: the failures so far for this delivery, and the wait before the next attempt. */
  retry?: { failures: number; inMs: number };
}

/**
 * One line per forwarding attempt, columns separated by two spaces:
 * `2026-11-28 14:03:07  [200]  invoice.paid  12 ms  0b7c6f0e-…`, then for a failure why and when the next attempt is.
 */
export function formatAttemptLine(line: AttemptLine): string {
  const status = "status" in line.outcome ? `[${line.outcome.status}]` : "[ERR]";
  const columns = [
    formatTime(line.time),
    status,
    line.eventType ?? "-",
    `${Math.round(line.latencyMs)} ms`,
    line.deliveryId,
  ];
  if ("error" in line.outcome) columns.push(line.outcome.error);
  if (line.retry) columns.push(`failure ${line.retry.failures}, retrying in ${formatSeconds(line.retry.inMs)}`);
  return columns.join("  ");
}

/** A line about a delivery that is not forwarded (`[---]`), e.g. deleted from Signalbox meanwhile. */
export function formatSkippedLine(time: Date, deliveryId: string, reason: string): string {
  return [formatTime(time), "[---]", "-", "-", deliveryId, reason].join("  ");
}

/** A line about the relay itself (ready, reconnecting, stopped), for standard error. */
export function formatNotice(time: Date, text: string): string {
  return `${formatTime(time)}  ${text}`;
}

/** Local time, to the second, as the terminal's user reads a clock. */
export function formatTime(time: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())} ${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}`;
}

export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
