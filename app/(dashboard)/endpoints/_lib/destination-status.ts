import type { Destination } from "@/app/(dashboard)/_hooks/use-destination-list";
import { formatDateTime, type FormatOptions } from "@/app/(dashboard)/_lib/display-format";

/** The destination's switch badge: the service disabling it (a 410 answer) reads differently from the user doing so. */
export function destinationStateLabel(destination: Pick<Destination, "enabled" | "disabledReason">): {
  label: string;
  tone: "on" | "off" | "gone";
} {
  if (destination.enabled) return { label: "Enabled", tone: "on" };
  if (destination.disabledReason === "gone") return { label: "Disabled: gone (410)", tone: "gone" };
  return { label: "Disabled", tone: "off" };
}

/**
 * The failing badge's words, or null while the latest attempt succeeded (or none was made): the last error, when,
 * and how many failed in a row.
 */
export function describeFailure(health: Destination["health"], options: FormatOptions = {}): string | null {
  if (!health.failing) return null;
  const error = health.lastError ?? "the last attempt failed";
  const when = health.lastFailureAt ?? health.lastAttemptAt;
  const streak =
    health.consecutiveFailures > 1 ? `, ${health.consecutiveFailures.toLocaleString("en")} failures in a row` : "";
  return when
    ? `${error} (${formatDateTime(when, options)}${streak})`
    : `${error}${streak ? ` (${streak.slice(2)})` : ""}`;
}

/** "Last success …" for a healthy destination that has forwarded something; null otherwise. */
export function describeLastSuccess(health: Destination["health"], options: FormatOptions = {}): string | null {
  if (health.failing || !health.lastSuccessAt) return null;
  return `Last forwarded ${formatDateTime(health.lastSuccessAt, options)}`;
}

/** 86400 → "1 day", 3600 → "1 hour", 90 → "90 seconds": the largest whole unit. */
export function describeSeconds(seconds: number): string {
  const units: [number, string][] = [
    [86_400, "day"],
    [3_600, "hour"],
    [60, "minute"],
  ];
  for (const [size, name] of units)
    if (seconds % size === 0) return `${seconds / size} ${name}${seconds === size ? "" : "s"}`;
  return `${seconds} seconds`;
}
