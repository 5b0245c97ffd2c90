import type { TextRun } from "@/lib/providers/first-party/website/text-runs";

/*
 * Matching inside a run whose inline wrappers left seams. "jane<span>@</span>acme.example" must read as one address,
 * but "Write to<b>jane@acme.example</b>" must not read as "tojane@…": a match that only exists by gluing text onto
 * something that matches on its own across a seam is narrowed to the part that matches on its own. A seam touching
 * "." or "@" is where an address was deliberately cut into pieces, so the pieces stay joined there.
 */

/** A reader of `pattern` (a global RegExp) that narrows every match at seams as above. */
export function seamAwareMatcher(pattern: RegExp): (run: TextRun) => RegExpExecArray[] {
  const whole = new RegExp(`^(?:${pattern.source})$`, pattern.flags.replace("g", ""));
  return (run) =>
    [...run.text.matchAll(pattern)].map((match) => {
      const start = match.index;
      const end = start + match[0].length;
      const [from, to] = narrowed(run, whole, start, end);
      return from === start && to === end ? match : whole.exec(run.text.slice(from, to))!;
    });
}

/** The longest part of [start, end) on one side of a gluing seam that matches on its own, repeated until none does. */
function narrowed(run: TextRun, whole: RegExp, start: number, end: number): [number, number] {
  const seams = seamsInside(run.seams, start, end).filter((seam) => gluesWords(run.text, seam));
  for (const seam of seams) if (whole.test(run.text.slice(seam, end))) return narrowed(run, whole, seam, end);
  for (const seam of seams.reverse())
    if (whole.test(run.text.slice(start, seam))) return narrowed(run, whole, start, seam);
  return [start, end];
}

/** The (ascending) seams strictly between start and end, found by bisection: a page may hold many of both. */
function seamsInside(seams: number[], start: number, end: number): number[] {
  let low = 0;
  let high = seams.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (seams[middle]! <= start) low = middle + 1;
    else high = middle;
  }
  const inside: number[] = [];
  for (let index = low; index < seams.length && seams[index]! < end; index += 1) inside.push(seams[index]!);
  return inside;
}

function gluesWords(text: string, seam: number): boolean {
  return /[^\s.@]/.test(text[seam - 1] ?? "") && /[^\s.@]/.test(text[seam] ?? "");
}
