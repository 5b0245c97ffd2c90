/**
 * Sums a V8 CPU profile (`node --cpu-prof`) by self time: per area of the code (node:http, node-postgres, Prisma, the
 * framework, JSON, garbage collection, our own lib/, …) and per function, over a window of the profile.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Which samples count: the `lengthMs` that started `fromEndMs` before the profile's end. */
export interface ProfileWindow {
  fromEndMs: number;
  lengthMs: number;
}

const AREAS: [string, (frame: CallFrame) => boolean][] = [
  ["idle", (frame) => frame.functionName === "(idle)"],
  ["garbage collection", (frame) => frame.functionName === "(garbage collector)"],
  ["V8 and native (program)", (frame) => frame.functionName === "(program)"],
  ["node-postgres", (frame) => /node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//.test(frame.url)],
  ["Prisma", (frame) => /node_modules\/(@prisma|\.prisma)\//.test(frame.url) || /lib\/db\/generated\//.test(frame.url)],
  ["Next.js and React", (frame) => /node_modules\/(next|react|react-dom)\//.test(frame.url)],
  ["tsx loader", (frame) => /node_modules\/(tsx|esbuild)\//.test(frame.url)],
  ["other dependencies", (frame) => frame.url.includes("node_modules/")],
  ["JSON (parse, stringify)", (frame) => frame.url === "" && /^(parse|stringify)$/.test(frame.functionName)],
  [
    "node:http and sockets",
    (frame) => /^node:(_http|http|net|stream|internal\/(streams|stream_base|http|net))/.test(frame.url),
  ],
  ["other node: internals", (frame) => frame.url.startsWith("node:")],
  [
    "our code",
    (frame) => frame.url.includes("/lib/") || frame.url.includes("/server.ts") || frame.url.includes("/app/"),
  ],
  ["built-ins and other", () => true],
];

const areaOf = (frame: CallFrame) => AREAS.find(([, matches]) => matches(frame))![0];

function shortUrl(url: string, root: string): string {
  const local = url.replace(/^file:\/\//, "").replace(`${root}/`, "");
  return local.replace(/^.*node_modules\//, "~/");
}

/** A plain-text report: busy time, the share of each area, and the 20 functions with the most self time. */
export function summarizeCpuProfile(profile: CpuProfile, root: string, window?: ProfileWindow): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  const fromMs = window ? totalMs - window.fromEndMs : 0;
  const toMs = window ? fromMs + window.lengthMs : totalMs;
  const selfMs = new Map<number, number>();
  let at = 0;
  for (let index = 0; index < profile.samples.length; index += 1) {
    const delta = (profile.timeDeltas[index] ?? 0) / 1000;
    at += delta;
    if (at < fromMs || at > toMs) continue;
    const id = profile.samples[index]!;
    selfMs.set(id, (selfMs.get(id) ?? 0) + delta);
  }
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let sampled = 0;
  for (const [id, ms] of selfMs) {
    const frame = byId.get(id)!.callFrame;
    const area = areaOf(frame);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    sampled += ms;
    if (area === "idle") continue;
    const name = `${frame.functionName || "(anonymous)"} ${shortUrl(frame.url, root)}:${frame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
  }
  const busy = sampled - (areas.get("idle") ?? 0);
  const percent = (ms: number, of: number) => `${((ms / of) * 100).toFixed(1).padStart(5)} %`;
  const lines = [
    `  App CPU profile over the measured ${(sampled / 1000).toFixed(1)} s: busy ${percent(busy, sampled)} of one core`,
    "  Self time by area (share of busy time):",
    ...[...areas]
      .filter(([area]) => area !== "idle")
      .sort((a, b) => b[1] - a[1])
      .map(([area, ms]) => `    ${percent(ms, busy)}  ${area}`),
    "  Hottest functions (self time, share of busy time):",
    ...[...functions]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([name, ms]) => `    ${percent(ms, busy)}  ${name}`),
  ];
  return lines.join("\n");
}
