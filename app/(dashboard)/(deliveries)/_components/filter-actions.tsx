"use client";

import { useState } from "react";
import { ConfirmDialog } from "@/app/(dashboard)/_components/modal-dialog";
import { useAcknowledgeMatching } from "../_hooks/use-acknowledge-matching";
import { useReplayMatching } from "../_hooks/use-replay";
import { downloadDeliveriesExport } from "../_lib/download-export";
import type { DeliveryFilters } from "../_lib/types";

export interface FilterActionsProps {
  /** The list's current filters: both actions act on exactly what the list shows (and what it would load). */
  filters: DeliveryFilters;
  /** Whether any filter narrows the list (the confirmation says "all deliveries" otherwise). */
  filtered: boolean;
  onNotice: (notice: { tone: "success" | "error"; text: string }) => void;
}

const count = (n: number) => `${n.toLocaleString("en")} ${n === 1 ? "delivery" : "deliveries"}`;

/** "Export" (NDJSON of the filtered list), "Acknowledge all matching" and "Replay matching", for the deliveries toolbar. */
export function FilterActions({ filters, filtered, onNotice }: FilterActionsProps) {
  const [exporting, setExporting] = useState(false);
  const [confirming, setConfirming] = useState<"acknowledge" | "replay" | null>(null);
  const acknowledge = useAcknowledgeMatching();
  const replay = useReplayMatching();

  async function exportList() {
    setExporting(true);
    try {
      const exported = await downloadDeliveriesExport(filters);
      if (exported !== null) onNotice({ tone: "success", text: `Exported ${count(exported)}.` });
    } catch (error) {
      onNotice({ tone: "error", text: `Could not export: ${error instanceof Error ? error.message : String(error)}` });
    } finally {
      setExporting(false);
    }
  }

  function acknowledgeAll() {
    acknowledge.mutate(filters, {
      onSuccess: (acknowledged) => {
        setConfirming(null);
        onNotice({ tone: "success", text: `Acknowledged ${count(acknowledged)}.` });
      },
    });
  }

  function replayAll() {
    replay.mutate(filters, {
      onSuccess: (queued) => {
        setConfirming(null);
        onNotice({
          tone: "success",
          text:
            queued === 0
              ? "Nothing was queued: no matching delivery's endpoint has an enabled destination."
              : `Queued ${count(queued)} to be forwarded again.`,
        });
      },
    });
  }

  return (
    <>
      <button type="button" className="button" onClick={() => void exportList()} disabled={exporting}>
        {exporting ? "Exporting…" : "Export"}
      </button>
      {filters.unacknowledged === "false" ? null : (
        <button type="button" className="button" onClick={() => setConfirming("acknowledge")}>
          Acknowledge all matching
        </button>
      )}
      <button type="button" className="button" onClick={() => setConfirming("replay")}>
        Replay matching
      </button>
      <ConfirmDialog
        open={confirming === "acknowledge"}
        title={filtered ? "Acknowledge every pending delivery that matches?" : "Acknowledge every pending delivery?"}
        confirmLabel="Acknowledge all"
        pendingLabel="Acknowledging…"
        pending={acknowledge.isPending}
        error={acknowledge.error ? `Could not acknowledge: ${acknowledge.error.message}` : null}
        onConfirm={acknowledgeAll}
        onCancel={() => {
          setConfirming(null);
          acknowledge.reset();
        }}
      >
        <p>
          Every pending delivery {filtered ? "that matches the current filters" : "of this workspace"} and was received
          until now is marked acknowledged, not only the rows loaded on the page. This cannot be undone.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === "replay"}
        title={filtered ? "Forward every delivery that matches again?" : "Forward every delivery again?"}
        confirmLabel="Replay all"
        pendingLabel="Replaying…"
        pending={replay.isPending}
        error={replay.error ? `Could not replay: ${replay.error.message}` : null}
        onConfirm={replayAll}
        onCancel={() => {
          setConfirming(null);
          replay.reset();
        }}
      >
        <p>
          Every delivery {filtered ? "that matches the current filters" : "of this workspace"} and was received until
          now is sent again to every enabled destination of its endpoint, not only the rows loaded on the page. Each
          gets a new forward, retried as usual; receivers see the same <code>webhook-id</code> as before.
        </p>
      </ConfirmDialog>
    </>
  );
}
