/*
 * Finds the README's runnable examples. The convention (README "Testing"): an HTML comment, invisible on GitHub,
 * right before a fenced block marks it.
 *
 * - `<!-- example -->` before a ```sh block: every `curl` command in it is run in order against a started app. The
 *   comment lines `# → [status] answer` after a command (continued by more `#` lines) show its answer: the status
 *   (200 when left out) and the answer's shape in the shorthand of ./shape.ts. A command with nothing shown must
 *   answer 2xx.
 * - `<!-- example: first start -->` before a plain ``` block: what `npm start` prints on a first start, line by line,
 *   `…` standing for any text.
 *
 * Blocks without a marker are illustrations and are not run.
 */

export interface CurlStep {
  /** The command as written, continuation lines joined. */
  command: string;
  /** The status shown, else 200. */
  status: number;
  /** Whether a status was written out (otherwise any 2xx will do when no answer is shown either). */
  statusShown: boolean;
  /** The answer shown, in the shorthand of ./shape.ts; undefined when none is. */
  answer?: string;
}

export type ReadmeExample =
  { kind: "curl"; line: number; steps: CurlStep[] } | { kind: "first start"; line: number; lines: string[] };

const MARKER = /^<!--\s*example(?::\s*(.+?))?\s*-->$/;
const SHOWN = /^#\s*→\s*(?:(\d{3})\b)?\s*(.*)$/;

/** The runnable examples of a README, in order, each with the line its block starts on (1-based). */
export function readmeExamples(markdown: string): ReadmeExample[] {
  const lines = markdown.split("\n");
  const examples: ReadmeExample[] = [];
  for (let index = 0; index < lines.length; index++) {
    const marker = MARKER.exec(lines[index]!.trim());
    if (!marker) continue;
    const fence = lines[index + 1]?.trim() ?? "";
    if (!fence.startsWith("```")) throw new Error(`README line ${index + 1}: an example marker must precede a fence`);
    const end = lines.findIndex((line, at) => at > index + 1 && line.trim() === "```");
    if (end === -1) throw new Error(`README line ${index + 2}: the example's block is not closed`);
    const body = lines.slice(index + 2, end);
    const kind = marker[1] ?? "curl";
    if (kind === "first start") examples.push({ kind, line: index + 2, lines: body });
    else if (kind === "curl" && fence === "```sh") examples.push({ kind, line: index + 2, steps: curlSteps(body) });
    else throw new Error(`README line ${index + 1}: unknown example "${kind}" or a block that is not \`\`\`sh`);
    index = end;
  }
  return examples;
}

/** The commands of a shell block with the answers shown after each. */
export function curlSteps(body: string[]): CurlStep[] {
  const steps: CurlStep[] = [];
  let answerOpen = false;
  for (const line of joinContinuations(body)) {
    const text = line.trim();
    const shown = SHOWN.exec(text);
    const current = steps.at(-1);
    if (text.startsWith("curl ")) {
      steps.push({ command: text, status: 200, statusShown: false });
      answerOpen = false;
    } else if (shown && current) {
      if (shown[1]) {
        current.status = Number(shown[1]);
        current.statusShown = true;
      }
      current.answer = shown[2] || undefined;
      answerOpen = true;
    } else if (answerOpen && current && text.startsWith("#")) {
      current.answer = `${current.answer ?? ""} ${text.slice(1).trim()}`.trim();
    } else {
      answerOpen = false;
      if (text && !text.startsWith("#"))
        throw new Error(`A runnable example may only hold curl commands and comments: "${text}"`);
    }
  }
  return steps;
}

function joinContinuations(body: string[]): string[] {
  const joined: string[] = [];
  let pending = "";
  for (const line of body) {
    if (line.trimEnd().endsWith("\\")) pending += `${line.trimEnd().slice(0, -1).trim()} `;
    else {
      joined.push(pending + (pending ? line.trim() : line));
      pending = "";
    }
  }
  return joined;
}

/** A line of a shown output as a pattern: `…` is any text, everything else literal. */
export function linePattern(line: string): RegExp {
  const parts = line.split("…").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".+")}$`);
}
