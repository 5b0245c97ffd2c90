import fc from "fast-check";

/*
 * How the hostile files run their properties: a fixed seed per property by default (CI runs the same cases every
 * time; a failure names the seed and the path to replay it), HOSTILE_SEED=<n> or HOSTILE_SEED=random to explore,
 * HOSTILE_RUNS=<n> to scale every property. What ran is counted and printed at the end of each file.
 */

const DEFAULT_SEED = 20_261_122;

function baseSeed(): number {
  const wanted = process.env.HOSTILE_SEED;
  if (wanted === "random") return Math.floor(Math.random() * 2 ** 31);
  if (wanted && Number.isSafeInteger(Number(wanted))) return Number(wanted);
  return DEFAULT_SEED;
}

const seed = baseSeed();

/** `runs` scaled by HOSTILE_RUNS_FACTOR (e.g. 10 for a long local hunt). */
export function runsFor(runs: number): number {
  const factor = Number(process.env.HOSTILE_RUNS_FACTOR ?? 1);
  return Math.max(1, Math.round(runs * (Number.isFinite(factor) && factor > 0 ? factor : 1)));
}

interface PropertyRecord {
  name: string;
  seed: number;
  runs: number;
  statuses: Map<number, number>;
  ms: number;
}

/** A ledger of the properties a file ran, for the summary printed when it ends. */
export function fuzzReport(file: string) {
  const records: PropertyRecord[] = [];

  /**
   * Runs `property` `runs` times with this property's seed (derived from the base seed and its name, so adding a
   * property does not change the others' cases). Returns the record to count statuses into.
   */
  async function check<T>(
    name: string,
    runs: number,
    arbitrary: fc.Arbitrary<T>,
    predicate: (value: T, record: PropertyRecord) => Promise<void>,
  ) {
    let hash = seed;
    for (const char of name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
    const record: PropertyRecord = { name, seed: hash, runs: 0, statuses: new Map(), ms: 0 };
    records.push(record);
    const started = performance.now();
    try {
      await fc.assert(
        fc.asyncProperty(arbitrary, async (value) => {
          record.runs += 1;
          await predicate(value, record);
        }),
        { numRuns: runsFor(runs), seed: hash },
      );
    } finally {
      record.ms = Math.round(performance.now() - started);
    }
    return record;
  }

  function count(record: PropertyRecord, status: number) {
    record.statuses.set(status, (record.statuses.get(status) ?? 0) + 1);
  }

  function print() {
    const total = records.reduce((sum, record) => sum + record.runs, 0);
    const lines = records.map((record) => {
      const statuses = [...record.statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, times]) => `${status}×${times}`)
        .join(" ");
      return `  ${record.name.padEnd(48)} runs ${String(record.runs).padStart(4)}  seed ${record.seed}  ${String(record.ms).padStart(6)} ms  ${statuses}`;
    });
    console.info(
      `[hostile] ${file}: ${total} cases in ${records.length} properties (base seed ${seed})\n${lines.join("\n")}`,
    );
  }

  return { check, count, print, records };
}
