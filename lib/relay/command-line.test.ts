import { describe, expect, it } from "vitest";
import { parseCommandLine, UsageError, type ListenOptions } from "./command-line";

const KEY = { SIGNALBOX_API_KEY: "sk_live_abc" };

function listen(argv: string[], env: Record<string, string | undefined> = KEY): ListenOptions {
  const command = parseCommandLine(argv, env);
  if (command.kind !== "listen") throw new Error(`expected listen, got ${command.kind}`);
  return command.options;
}

function usageError(argv: string[], env: Record<string, string | undefined> = KEY): string {
  try {
    parseCommandLine(argv, env);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error("expected a UsageError");
}

describe("parseCommandLine", () => {
  it("reads the flags and the environment, acknowledging by default", () => {
    const options = listen(["listen", "--forward-to", "http://localhost:4000/webhooks", "--endpoint", "we_abc123"], {
      ...KEY,
      SIGNALBOX_URL: "https://signalbox.example.com",
    });
    expect(options).toEqual({
      forwardTo: new URL("http://localhost:4000/webhooks"),
      endpointId: "we_abc123",
      acknowledge: true,
      apiKey: "sk_live_abc",
      serviceUrl: new URL("https://signalbox.example.com"),
    });
  });

  it("takes short flags, --name=value, and the last of --ack and --no-ack", () => {
    const options = listen(["listen", "-f", "http://127.0.0.1:9/x", "-e", "we_1", "--ack", "--no-ack"]);
    expect(options.forwardTo.href).toBe("http://127.0.0.1:9/x");
    expect(options.acknowledge).toBe(false);
    expect(listen(["listen", "--forward-to=http://h/x", "-e", "we_1"]).endpointId).toBe("we_1");
    expect(listen(["listen", "--no-ack", "--ack", "-f", "http://h/"]).acknowledge).toBe(true);
  });

  it("defaults to every endpoint and the local service", () => {
    const options = listen(["listen", "-f", "http://h/"]);
    expect(options.endpointId).toBeNull();
    expect(options.serviceUrl.href).toBe("http://localhost:3000/");
  });

  it("completes a forward address without a scheme, or a bare port", () => {
    expect(listen(["listen", "-f", "localhost:3000/webhooks"]).forwardTo.href).toBe("http://localhost:3000/webhooks");
    expect(listen(["listen", "-f", "4242"]).forwardTo.href).toBe("http://localhost:4242/");
    expect(listen(["listen", "-f", "HTTPS://Example.com/h?x=1"]).forwardTo.href).toBe("https://example.com/h?x=1");
  });

  it("answers --help anywhere on the line, even without a key", () => {
    expect(parseCommandLine(["--help"], {})).toEqual({ kind: "help" });
    expect(parseCommandLine(["listen", "-f", "nope://", "-h"], {})).toEqual({ kind: "help" });
  });

  it.each([
    [[], "Name a command"],
    [["forward"], 'Unknown command "forward"'],
    [["listen"], "--forward-to <url> is required"],
    [["listen", "--forward-to"], "--forward-to needs a value"],
    [["listen", "--forward-to="], "--forward-to needs a value"],
    [["listen", "-f", "http://h/", "--verbose"], 'Unknown option "--verbose"'],
    [["listen", "-f", "http://h/", "--ack=false"], 'Unknown option "--ack=false"'],
    [["listen", "-f", "ftp://files.example.com/"], "must be an http:// or https:// URL"],
    [["listen", "-f", "http://"], "is not a URL"],
    [["listen", "-f", "http://h/", "--endpoint", "abc"], "--endpoint takes a webhook endpoint id (we_…)"],
  ])("refuses %j: %s", (argv, message) => {
    expect(usageError(argv)).toContain(message);
  });

  it("refuses a missing or blank API key, naming the variable", () => {
    expect(usageError(["listen", "-f", "http://h/"], {})).toContain("SIGNALBOX_API_KEY is not set");
    expect(usageError(["listen", "-f", "http://h/"], { SIGNALBOX_API_KEY: "  " })).toContain("SIGNALBOX_API_KEY");
  });

  it("refuses a SIGNALBOX_URL that is not an http URL", () => {
    expect(usageError(["listen", "-f", "http://h/"], { ...KEY, SIGNALBOX_URL: "localhost:3000" })).toContain(
      "SIGNALBOX_URL must be an http:// or https:// URL",
    );
  });

  it("refuses to forward into the service's own ingest address (a loop)", () => {
    expect(
      usageError(["listen", "-f", "http://localhost:3000/webhooks/ingest/we_abc"], {
        ...KEY,
        SIGNALBOX_URL: "http://localhost:3000",
      }),
    ).toContain("ingest address");
    // The same path on another origin is someone else's receiver.
    expect(listen(["listen", "-f", "http://localhost:4000/webhooks/ingest/x"]).forwardTo.port).toBe("4000");
  });
});
