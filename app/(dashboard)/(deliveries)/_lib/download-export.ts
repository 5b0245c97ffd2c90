import { dashboardClient } from "@/lib/client/dashboard-client";
import { exportDeliveriesContract } from "@/lib/contracts/webhooks";
import { exportEndCount, keepTail } from "./export-end";
import type { DeliveryFilters } from "./types";

/** Where the bytes go: a file the user picked (streamed to disk), or memory for a Blob download. */
interface ExportSink {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

type SaveFilePicker = (options: {
  suggestedName: string;
  types: { description: string; accept: Record<string, string[]> }[];
}) => Promise<{ createWritable(): Promise<WritableStreamDefaultWriter<Uint8Array> & { close(): Promise<void> }> }>;

/** Chromium's File System Access API: the export streams to disk, so its size does not matter to the tab. */
async function pickedFileSink(pick: SaveFilePicker, name: string): Promise<ExportSink> {
  const writable = await (
    await pick({
      suggestedName: name,
      types: [{ description: "NDJSON", accept: { "application/x-ndjson": [".ndjson"] } }],
    })
  ).createWritable();
  return {
    write: (chunk) => writable.write(chunk),
    close: () => writable.close(),
    abort: () => writable.abort(),
  };
}

/** Elsewhere: the chunks become a Blob (browsers keep large ones on disk) saved through a temporary object URL. */
function blobSink(name: string): ExportSink {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  return {
    write: async (chunk) => void chunks.push(chunk.slice()),
    close: async () => {
      const url = URL.createObjectURL(new Blob(chunks, { type: "application/x-ndjson" }));
      const link = Object.assign(document.createElement("a"), { href: url, download: name });
      link.click();
      // The download has taken its reference by the next task; the URL would otherwise pin the Blob for the page's life.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    },
    abort: async () => void chunks.splice(0),
  };
}

/**
 * Downloads the deliveries the filters select as NDJSON. A plain `<a href>` would not do: the API takes a dashboard
 * session only with the dashboard header (the CSRF guard in lib/api/authenticate.ts), which a link cannot send, and
 * loosening that for one GET would let any site start exports in a signed-in browser. So the export is fetched with
 * the header and saved from here. Must be called from the click: the file picker needs the user's gesture. Resolves
 * to the number of deliveries, or null when the user cancelled the picker; throws when the export was cut.
 */
export async function downloadDeliveriesExport(filters: DeliveryFilters): Promise<number | null> {
  const name = `deliveries-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-")}.ndjson`;
  const pick = (window as unknown as { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker;
  let sink: ExportSink;
  try {
    sink = pick ? await pickedFileSink(pick, name) : blobSink(name);
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") return null;
    throw error;
  }
  try {
    const response = await dashboardClient().open(exportDeliveriesContract, { query: { ...filters } });
    const reader = response.body!.getReader();
    let tail: Uint8Array = new Uint8Array();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      tail = keepTail(tail, read.value);
      await sink.write(read.value);
    }
    const count = exportEndCount(tail);
    if (count === null) throw new Error("The export was cut off before its end. Try again.");
    await sink.close();
    return count;
  } catch (error) {
    await sink.abort().catch(() => undefined);
    throw error;
  }
}
