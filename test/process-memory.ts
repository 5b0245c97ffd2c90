import { readFileSync } from "node:fs";

/** A `kB` field of /proc/<pid>/status (VmRSS, VmHWM, …) in bytes; 0 once the process is gone. */
function statusField(pid: number, field: string): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The process and every process below it (Next.js may fork workers). */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  } catch {
    // Gone, or no children file on this kernel: the process alone.
  }
  return [pid, ...children.flatMap(processTree)];
}

/** Resident memory of a process tree now, in bytes. */
export function treeRss(pid: number): number {
  return processTree(pid).reduce((sum, member) => sum + statusField(member, "VmRSS"), 0);
}

/** Largest resident memory the process itself ever had (the kernel's high-water mark), in bytes. */
export function peakRss(pid: number): number {
  return statusField(pid, "VmHWM");
}

/**
 * Samples a process tree's resident memory every `everyMs` until stopped; `stop()` gives the largest sample. The
 * kernel's VmHWM covers the main process between samples; this covers workers too.
 */
export function sampleTreeRss(pid: number, everyMs = 20): { stop: () => number } {
  let largest = treeRss(pid);
  const timer = setInterval(() => (largest = Math.max(largest, treeRss(pid))), everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(largest, treeRss(pid));
    },
  };
}

export const MiB = 1_048_576;
