import { describe, expect, it } from "vitest";
import { linePattern, readmeExamples } from "./examples";

const README = [
  "Intro",
  "",
  "<!-- example -->",
  "```sh",
  'curl -X POST http://localhost:3000/v1/things -H "Authorization: Bearer $KEY" \\',
  '  -d \'{"name": "x"}\'',
  '# → 201 {"id":"th_…",',
  '#        "name":"x"}',
  "",
  "# A comment that is not an answer.",
  "curl -X DELETE http://localhost:3000/v1/things/th_…",
  "curl http://localhost:3000/healthz",
  '# → {"status":"ok"}',
  "```",
  "",
  "```sh",
  "npm start",
  "```",
  "<!-- example: first start -->",
  "```",
  "[signalbox] Ready on http://localhost:3000 (…)",
  "```",
].join("\n");

describe("readmeExamples", () => {
  it("reads marked blocks only, with each command's shown status and answer", () => {
    expect(readmeExamples(README)).toEqual([
      {
        kind: "curl",
        line: 4,
        steps: [
          {
            command:
              'curl -X POST http://localhost:3000/v1/things -H "Authorization: Bearer $KEY" -d \'{"name": "x"}\'',
            status: 201,
            statusShown: true,
            answer: '{"id":"th_…", "name":"x"}',
          },
          { command: "curl -X DELETE http://localhost:3000/v1/things/th_…", status: 200, statusShown: false },
          { command: "curl http://localhost:3000/healthz", status: 200, statusShown: false, answer: '{"status":"ok"}' },
        ],
      },
      { kind: "first start", line: 20, lines: ["[signalbox] Ready on http://localhost:3000 (…)"] },
    ]);
  });

  it("refuses a marked block that holds something other than curl", () => {
    expect(() => readmeExamples("<!-- example -->\n```sh\nnpm start\n```")).toThrow(/only hold curl/);
  });
});

describe("linePattern", () => {
  it("takes … for any text and the rest literally", () => {
    expect(linePattern("Applied migrations: 2026_a, …").test("Applied migrations: 2026_a, 2026_b")).toBe(true);
    expect(linePattern("Applied migrations: 2026_a").test("Applied migrations: 2026_a, 2026_b")).toBe(false);
    expect(linePattern("(dashboard at http://x/)").test("(dashboard at http://x/)")).toBe(true);
  });
});
