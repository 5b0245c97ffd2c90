import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { buildFirstWebhookCurl, buildReplayCurl, fallbackIngestUrl, replayBody, replayUrl, shellQuote } from "./curl";

/** What a real POSIX shell makes of a quoted word. */
function throughShell(quoted: string): string {
  return execFileSync("/bin/sh", ["-c", `printf '%s' ${quoted}`], { encoding: "utf8" });
}

describe("shellQuote", () => {
  it("leaves plain words alone", () => {
    expect(shellQuote("https://example.com/webhooks/ingest/we_abc")).toBe("https://example.com/webhooks/ingest/we_abc");
  });

  it("quotes everything a shell would interpret", () => {
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote("$HOME")).toBe("'$HOME'");
  });

  it.each([
    "it's",
    `{"a":"$(rm -rf /)","b":"\`id\`","c":"\\n","d":"'single' \\"double\\""}`,
    "line one\nline two\n",
    "!!; echo pwned && true | cat > /tmp/x",
    "''''",
    "tabs\tand ünïcödé ✓",
    "*?[a-z]~ {a,b}",
  ])("survives a real shell: %j", (value) => {
    expect(throughShell(shellQuote(value))).toBe(value);
  });
});

describe("replayBody", () => {
  it("re-serialises parsed JSON", () => {
    expect(replayBody({ contentType: "application/json", rawPayload: { event: "paid", amount: 5 } })).toBe(
      '{"event":"paid","amount":5}',
    );
    expect(replayBody({ contentType: "application/json", rawPayload: [1, "two"] })).toBe('[1,"two"]');
  });

  it("sends the text of a non-JSON body", () => {
    expect(replayBody({ contentType: "application/x-www-form-urlencoded", rawPayload: { raw: "a=1&b=2" } })).toBe(
      "a=1&b=2",
    );
    expect(replayBody({ contentType: null, rawPayload: { raw: "hello" } })).toBe("hello");
  });

  it("sends the text of JSON that did not parse", () => {
    expect(replayBody({ contentType: "application/json", rawPayload: { raw: "{not json" } })).toBe("{not json");
  });

  it('keeps a sender\'s own {"raw": …} JSON object', () => {
    // Had the body been the text `{"a":1}`, it would have parsed; so the sender sent the object itself.
    expect(replayBody({ contentType: "application/json", rawPayload: { raw: '{"a":1}' } })).toBe(
      '{"raw":"{\\"a\\":1}"}',
    );
  });
});

describe("buildReplayCurl", () => {
  it("posts the payload to the ingest URL with the content type and query string", () => {
    const command = buildReplayCurl(
      { contentType: "application/json", query: "source=stripe&x=1", rawPayload: { note: "it's $5" } },
      "http://localhost:3000/webhooks/ingest/we_abc",
    );
    expect(command).toBe(
      [
        "curl -X POST 'http://localhost:3000/webhooks/ingest/we_abc?source=stripe&x=1' \\",
        "  -H 'Content-Type: application/json' \\",
        `  --data-raw '{"note":"it'\\''s $5"}'`,
      ].join("\n"),
    );
  });

  it("prefers the exact original body when it is known", () => {
    const delivery = { contentType: "application/json", query: "", rawPayload: { a: 1, b: 2 } };
    expect(buildReplayCurl(delivery, "http://h/in", '{ "b": 2,\n  "a": 1 }')).toContain(
      `--data-raw '{ "b": 2,\n  "a": 1 }'`,
    );
    expect(buildReplayCurl(delivery, "http://h/in", null)).toContain(`--data-raw '{"a":1,"b":2}'`);
  });

  it("sends no content type when the original had none", () => {
    expect(
      buildReplayCurl(
        { contentType: null, query: "", rawPayload: { raw: "@/etc/passwd" } },
        "http://h/webhooks/ingest/we_1",
      ),
    ).toBe(
      ["curl -X POST http://h/webhooks/ingest/we_1 \\", "  -H Content-Type: \\", "  --data-raw @/etc/passwd"].join(
        "\n",
      ),
    );
  });

  it("is one shell command whose words are exactly the intended arguments", () => {
    const body = `{"quote":"it's","dollar":"$PATH","newline":"a\\nb"}`;
    const command = buildReplayCurl(
      { contentType: "application/json", query: "", rawPayload: { raw: "x" } },
      "http://h/in",
    );
    expect(command.split("\n")).toHaveLength(3);
    const replay = buildReplayCurl({ contentType: "text/plain", query: "", rawPayload: { raw: body } }, "http://h/in");
    // Replace `curl` with a printer of its arguments and run the command through a real shell.
    const words = execFileSync(
      "/bin/sh",
      ["-c", `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }; ${replay}`],
      { encoding: "utf8" },
    )
      .split("\0")
      .slice(0, -1);
    expect(words).toEqual(["-X", "POST", "http://h/in", "-H", "Content-Type: text/plain", "--data-raw", body]);
  });
});

describe("helpers", () => {
  it("appends the query string to the ingest URL", () => {
    expect(replayUrl("http://h/in", "")).toBe("http://h/in");
    expect(replayUrl("http://h/in", "a=1")).toBe("http://h/in?a=1");
    expect(replayUrl("http://h/in?k=v", "a=1")).toBe("http://h/in?k=v&a=1");
  });

  it("builds a first-webhook example and a fallback ingest URL", () => {
    expect(fallbackIngestUrl("http://localhost:3000", "we_abc")).toBe("http://localhost:3000/webhooks/ingest/we_abc");
    expect(buildFirstWebhookCurl("http://h/in")).toContain('--data-raw \'{"type":"hello.world"');
  });
});
