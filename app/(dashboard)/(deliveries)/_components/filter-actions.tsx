"use client";

import { useState } from "react";
import { ConfirmDialog } from "@/app/(dashboard)/_components/modal-dialog";
import { useAcknowledgeMatching } from "../_hooks/use-acknowledge-matching";
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

/** "Export" (NDJSON of the filtered list) and "Acknowledge all matching", for the deliveries toolbar. */
export function FilterActions({ filters, filtered, onNotice }: FilterActionsProps) {
  const [exporting, setExporting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const acknowledge = useAcknowledgeMatching();

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
        setConfirming(false);
        onNotice({ tone: "success", text: `Acknowledged ${count(acknowledged)}.` });
      },
    });
  }

  return (
    <>
      <button type="button" className="button" onClick={() => void exportList()} disabled={exporting}>
        {exporting ? "Exporting…" : "Export"}
      </button>
      {filters.unacknowledged === "false" ? null : (
        <button type="button" className="button" onClick={() => setConfirming(true)}>
          Acknowledge all matching
        </button>
      )}
      <ConfirmDialog
        open={confirming}
        title={filtered ? "Acknowledge every pending delivery that matches?" : "Acknowledge every pending delivery?"}
        confirmLabel="Acknowledge all"
        pendingLabel="Acknowledging…"
        pending={acknowledge.isPending}
        error={acknowledge.error ? `Could not acknowledge: ${acknowledge.error.message}` : null}
        onConfirm={acknowledgeAll}
        onCancel={() => {
          setConfirming(false);
          acknowledge.reset();
        }}
      >
        <p>
          Every pending delivery {filtered ? "that matches the current filters" : "of this workspace"} and was received
          until now is marked acknowledged, not only the rows loaded on the page. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
