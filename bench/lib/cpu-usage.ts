/**
 * CPU time from /proc (Linux): of one process, of PostgreSQL's processes, and of the whole machine, so a benchmark can
 * say who spent the cores and whether any were left idle.
 */
import { readdir, readFile } from "node:fs/promises";
import type pg from "pg";

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** The fields after the command name in /proc/<pid>/stat (the name may hold spaces and parentheses). */
async function statFields(pid: number | string): Promise<string[]> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** User and system (kernel: syscalls, loopback TCP) CPU seconds of a process; 0 when it is gone. */
export async function cpuTimes(pid: number): Promise<{ user: number; system: number }> {
  const fields = await statFields(pid);
  return { user: Number(fields[11] ?? 0) / TICKS_PER_SECOND, system: Number(fields[12] ?? 0) / TICKS_PER_SECOND };
}

/** utime + stime of a process, in seconds; 0 when it is gone. */
export async function cpuSeconds(pid: number): Promise<number> {
  const { user, system } = await cpuTimes(pid);
  return user + system;
}

/** The postmaster and every process it started (backends, WAL writer, checkpointer, …). */
async function postgresPids(pool: pg.Pool): Promise<number[]> {
  const { rows } = await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  const postmaster = Number((await statFields(rows[0]!.pid))[1]);
  const children: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (/^\d+$/.test(entry) && Number((await statFields(entry))[1]) === postmaster) children.push(Number(entry));
  }
  return [postmaster, ...children];
}

/**
 * CPU seconds so far of each PostgreSQL process, by pid. The postmaster's figure includes its children that have exited
 * (`cutime`/`cstime`: it reaps its backends), so a backend that ends between two readings still counts.
 */
export async function postgresCpu(pool: pg.Pool): Promise<Map<number, number>> {
  const [postmaster, ...children] = await postgresPids(pool);
  const withReaped = async (pid: number) => {
    const fields = await statFields(pid);
    return [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0) / TICKS_PER_SECOND;
  };
  return new Map([
    [postmaster!, await withReaped(postmaster!)],
    ...(await Promise.all(children.map(async (pid) => [pid, await cpuSeconds(pid)] as const))),
  ]);
}

/**
 * PostgreSQL's CPU seconds between two `postgresCpu` readings: a backend started in between counts in full, one that
 * ended in between through the postmaster's reaped children.
 */
export function postgresCpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  const total = (reading: Map<number, number>) => [...reading.values()].reduce((sum, cpu) => sum + cpu, 0);
  return total(after) - total(before);
}

/** The machine's CPU time so far, over all cores, in ticks: all of it, and the idle part (idle + iowait). */
export interface MachineTicks {
  total: number;
  idle: number;
}

export async function machineTicks(): Promise<MachineTicks> {
  const line = (await readFile("/proc/stat", "utf8")).split("\n", 1)[0]!;
  // cpu user nice system idle iowait irq softirq steal guest guest_nice; guest time is already counted in user.
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  const idleTicks = idle! + iowait!;
  return { total: user! + nice! + system! + idleTicks + irq! + softirq! + steal!, idle: idleTicks };
}

/** The idle share of the machine's CPU time between two readings (0–1). */
export function idleShare(before: MachineTicks, after: MachineTicks): number {
  const total = after.total - before.total;
  return total > 0 ? (after.idle - before.idle) / total : Number.NaN;
}

interface TicksSample {
  at: number;
  ticks: MachineTicks;
}

/**
 * Reads the machine's ticks every `intervalMs` until stopped; `idleShareWithin` then gives the idle share of a window
 * (e.g. while a load ran: the load generators' own start-up and exit fall outside it).
 */
export function sampleMachineTicks(intervalMs = 100) {
  const samples: TicksSample[] = [];
  const take = async () => samples.push({ at: Date.now(), ticks: await machineTicks() });
  let last = take();
  const timer = setInterval(() => (last = last.then(take)), intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await last;
      await take();
    },
    /** The idle share between the first sample at or after `from` and the last at or before `to` (ms since the epoch). */
    idleShareWithin: (from: number, to: number) => {
      const inside = samples.filter((sample) => sample.at >= from && sample.at <= to);
      return inside.length < 2 ? Number.NaN : idleShare(inside[0]!.ticks, inside.at(-1)!.ticks);
    },
  };
}
