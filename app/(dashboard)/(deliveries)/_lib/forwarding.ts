import type { z } from "zod";
import type { attemptSchema, FORWARD_STATUSES, forwardSchema } from "@/lib/contracts/forwarding";

export type Forward = z.output<typeof forwardSchema>;
export type Attempt = z.output<typeof attemptSchema>;
export type ForwardStatus = (typeof FORWARD_STATUSES)[number];

export const FORWARD_STATUS_LABELS: Record<ForwardStatus, string> = {
  pending: "Pending",
  succeeded: "Succeeded",
  failed: "Failed",
};

/** How often the drawer asks again while a forward is pending (attempts are seconds apart at first). */
export const FORWARDING_POLL_MS = 2_000;

/** One forward with its attempts, as the drawer's timeline shows it. */
export interface ForwardTimeline {
  forward: Forward;
  /** Oldest first, as they happened. */
  attempts: Attempt[];
}

const byTimeThenId = (a: { at: string; id: string }, b: { at: string; id: string }) =>
  Date.parse(a.at) - Date.parse(b.at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The forwards newest first (a replay on top of the forward it repeats), each with its attempts oldest first by
 * attempt number, then start. Sorted here rather than taken in the answer's order: the timeline numbers its attempts,
 * and ties need an order that does not move between polls. Attempts of a forward not listed are left out.
 */
export function forwardTimelines(forwards: readonly Forward[], attempts: readonly Attempt[]): ForwardTimeline[] {
  const byForward = new Map<string, Attempt[]>(forwards.map((forward) => [forward.id, []]));
  for (const attempt of attempts) byForward.get(attempt.forwardId)?.push(attempt);
  return [...forwards]
    .sort((a, b) => byTimeThenId({ at: b.createdAt, id: b.id }, { at: a.createdAt, id: a.id }))
    .map((forward) => ({
      forward,
      attempts: (byForward.get(forward.id) ?? []).sort(
        (a, b) =>
          a.attemptNumber - b.attemptNumber ||
          byTimeThenId({ at: a.startedAt, id: a.id }, { at: b.startedAt, id: b.id }),
      ),
    }));
}

/** Whether the timeline can still change by itself: the drawer polls while it can. */
export function hasPendingForward(forwards: readonly Pick<Forward, "status">[] | undefined): boolean {
  return forwards?.some((forward) => forward.status === "pending") ?? false;
}

/** An attempt's outcome in a few words: the status code, else the error; 2xx is a success. */
export function attemptOutcome(attempt: Pick<Attempt, "responseStatus" | "error">): {
  ok: boolean;
  label: string;
} {
  if (attempt.responseStatus !== null) {
    const ok = attempt.responseStatus >= 200 && attempt.responseStatus < 300;
    return { ok, label: `HTTP ${attempt.responseStatus}${attempt.error ? `: ${attempt.error}` : ""}` };
  }
  return { ok: false, label: attempt.error ?? "No response" };
}

/** "3 attempts", or, when the answer holds only the latest of them, "250 attempts, the latest 200 shown". */
export function attemptCountLabel(forward: Pick<Forward, "attemptCount">, shown: number): string {
  const total = `${forward.attemptCount.toLocaleString("en")} ${forward.attemptCount === 1 ? "attempt" : "attempts"}`;
  return shown < forward.attemptCount && shown > 0 ? `${total}, the latest ${shown.toLocaleString("en")} shown` : total;
}

/** What a destination id stands for in the drawer: its URL, or a note when it was removed since. */
export function destinationLabel(destinationId: string, urls: ReadonlyMap<string, string>): string {
  return urls.get(destinationId) ?? `Removed destination (${destinationId})`;
}

/**
 * Why a delivery has no forward, from its endpoint's destinations (undefined while they load): none at all, none
 * switched on (Replay has nowhere to send), or some that came after it arrived (Replay sends it now).
 */
export function notForwardedReason(
  destinations: readonly { enabled: boolean }[] | undefined,
): "unknown" | "no-destinations" | "all-disabled" | "added-later" {
  if (destinations === undefined) return "unknown";
  if (destinations.length === 0) return "no-destinations";
  return destinations.some((destination) => destination.enabled) ? "added-later" : "all-disabled";
}
