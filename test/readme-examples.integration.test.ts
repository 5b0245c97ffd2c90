import { execFile } from "node:child_process";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "./app-server";
import { startFakeYouTube, type FakeYouTube } from "./fakes/youtube-server";
import { linePattern, readmeExamples, type CurlStep } from "./readme/examples";
import { parseShape, placeholderValues, shapeMismatches } from "./readme/shape";

// The README is run, not just read: its marked examples (test/readme/examples.ts has the convention) against the app
// as a new user starts it, `npm start` on an empty data folder, with YouTube played by the local fake.

const README = await readFile(path.resolve(import.meta.dirname, "..", "README.md"), "utf8");
const examples = readmeExamples(README);
/** How the README writes the base URL; the app under test listens elsewhere. */
const README_BASE_URL = "http://localhost:3000";

let folder: string;
let youtube: FakeYouTube;
let app: RunningApp;
/** Placeholders the README uses → their real values: the printed keys, then ids from earlier answers. */
const values = new Map<string, string>();

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "signalbox-readme-"));
  // DATA_DIR is a `.data` inside it, as in a checkout; run as root, PostgreSQL's own user must be able to reach it.
  await chmod(folder, 0o755);
  // The README's video example uses a familiar id; the fake answers it with its fictional normal video.
  youtube = await startFakeYouTube({ aliases: { dQw4w9WgXcQ: "normal" } });
  app = await startApp({
    DATABASE_URL: "",
    DATA_DIR: path.join(folder, ".data"),
    YOUTUBE_BASE_URL: youtube.baseUrl,
    OUTBOUND_ALLOW_LOOPBACK: "true",
  });
  values.set("sbx_live_…", /Live key\s+(sbx_live_\w+)/.exec(app.output())?.[1] ?? "");
  values.set("sbx_test_…", /Test key\s+(sbx_test_\w+)/.exec(app.output())?.[1] ?? "");
}, 120_000);

afterAll(async () => {
  await app?.stop("SIGINT");
  await youtube?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

const run = promisify(execFile);
/**
 * Every curl of the README also prints the status, on a line of its own after the body. Where curl is not installed,
 * a stand-in in Node (test/readme/curl-stand-in.ts) speaks the few flags the README uses, so `npm test` needs no curl.
 */
const CURL_WITH_STATUS = await run("bash", ["-c", "command -v curl"]).then(
  () => `curl() { command curl --silent --show-error --write-out '\\n%{http_code}' "$@"; }`,
  () => `curl() { node --import tsx ${path.resolve(import.meta.dirname, "readme", "curl-stand-in.ts")} "$@"; }`,
);

/** Runs one README command in bash, as a reader would paste it, with $KEY and $TEST_KEY set to the printed keys. */
async function runStep(step: CurlStep): Promise<{ command: string; status: number; body: string }> {
  let command = step.command.replaceAll(README_BASE_URL, app.baseUrl);
  for (const [placeholder, value] of values) command = command.replaceAll(placeholder, value);
  const unresolved = /[a-z]+_…|<\w+>/.exec(command);
  if (unresolved) throw new Error(`"${unresolved[0]}" in "${step.command}" is not shown in any earlier answer`);
  const { stdout } = await run("bash", ["-c", `${CURL_WITH_STATUS}\n${command}`], {
    cwd: folder,
    env: { ...process.env, KEY: values.get("sbx_live_…"), TEST_KEY: values.get("sbx_test_…") },
  });
  const split = stdout.lastIndexOf("\n");
  return { command, status: Number(stdout.slice(split + 1)), body: stdout.slice(0, split) };
}

/** How a real answer differs from what the README shows for it; empty when it fits. */
function drift(step: CurlStep, status: number, body: string): string[] {
  if (!step.statusShown && step.answer === undefined)
    return status >= 200 && status < 300 ? [] : [`answered ${status}, the README shows no error`];
  const problems = status === step.status ? [] : [`answered ${status}, the README shows ${step.status}`];
  if (step.answer === undefined) return problems;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return [...problems, `answered something other than JSON: ${body.slice(0, 200)}`];
  }
  const shape = parseShape(step.answer);
  for (const [placeholder, value] of placeholderValues(shape, json)) values.set(placeholder, value);
  return [...problems, ...shapeMismatches(shape, json)];
}

describe("the README's examples", () => {
  it("has runnable examples to check", () => {
    expect(examples.filter((example) => example.kind === "first start")).toHaveLength(1);
    expect(examples.filter((example) => example.kind === "curl").length).toBeGreaterThanOrEqual(5);
  });

  for (const example of examples) {
    if (example.kind === "first start") {
      it(`README line ${example.line}: a first start prints what the README shows, in that order`, () => {
        const printed = app.output().split("\n");
        const matched = new Set<number>();
        const missing: string[] = [];
        for (const line of example.lines) {
          const pattern = linePattern(line.replaceAll(README_BASE_URL, app.baseUrl));
          const from = Math.max(-1, ...matched) + 1;
          const at = printed.findIndex((candidate, index) => index >= from && pattern.test(candidate));
          if (at === -1) missing.push(line);
          else matched.add(at);
        }
        // Every launcher line is shown too, but for the end-of-life warning that only some Node.js lines get.
        const unshown = printed.filter(
          (line, index) => line.startsWith("[signalbox]") && !line.includes("Warning:") && !matched.has(index),
        );
        expect({ missing, unshown }, `printed:\n${app.output()}`).toEqual({ missing: [], unshown: [] });
      });
    } else {
      it(`README line ${example.line}: every command answers what the README shows`, { timeout: 60_000 }, async () => {
        const problems: string[] = [];
        for (const step of example.steps) {
          const { command, status, body } = await runStep(step);
          problems.push(...drift(step, status, body).map((problem) => `${command}\n  ${problem}`));
        }
        expect(problems).toEqual([]);
      });
    }
  }
});
