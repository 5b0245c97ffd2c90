import { ingestDeliveryContract } from "@/lib/contracts/webhooks";

/** What `signalbox listen` was asked to do, with its environment read and checked. */
export interface ListenOptions {
  /** The receiver every delivery is POSTed to. */
  forwardTo: URL;
  /** Only this endpoint's deliveries; null: every endpoint of the key's workspace. */
  endpointId: string | null;
  /** Acknowledge a delivery once the receiver answered it with a 2xx (`--ack`, the default). */
  acknowledge: boolean;
  apiKey: string;
  /** The Signalbox service (`SIGNALBOX_URL`). */
  serviceUrl: URL;
}

export type Command = { kind: "help" } | { kind: "listen"; options: ListenOptions };

/** A command line (or environment) that cannot run: the message says what to change; exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export const DEFAULT_SERVICE_URL = "http://localhost:3000";

/**
 * Reads `signalbox listen --forward-to <url> [--endpoint we_…] [--ack|--no-ack]` (`--name=value` too) with
 * SIGNALBOX_API_KEY and SIGNALBOX_URL. `--forward-to` may leave out `http://` (`localhost:3000/webhooks`) or be a bare
 * port (`3000`), as the Stripe and Hookdeck CLIs allow.
 */
export function parseCommandLine(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Command {
  if (argv.some((arg) => arg === "--help" || arg === "-h")) return { kind: "help" };
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError("Name a command: `signalbox listen --forward-to <url>`.");
  if (command !== "listen") throw new UsageError(`Unknown command "${command}"; the one command is \`listen\`.`);

  let forwardTo: string | undefined;
  let endpointId: string | undefined;
  let acknowledge = true;
  for (let index = 0; index < rest.length; index += 1) {
    const arg = rest[index]!;
    const [flag, inlineValue] = arg.startsWith("--") && arg.includes("=") ? splitOnce(arg, "=") : [arg, undefined];
    const value = () => {
      const next = inlineValue ?? rest[(index += 1)];
      if (next === undefined || next === "") throw new UsageError(`${flag} needs a value.`);
      return next;
    };
    if (flag === "--forward-to" || flag === "-f") forwardTo = value();
    else if (flag === "--endpoint" || flag === "-e") endpointId = value();
    else if ((flag === "--ack" || flag === "--no-ack") && inlineValue === undefined) acknowledge = flag === "--ack";
    else throw new UsageError(`Unknown option "${arg}".`);
  }

  if (forwardTo === undefined) throw new UsageError("--forward-to <url> is required: where to send each delivery.");
  if (endpointId !== undefined && !/^we_[A-Za-z0-9]{1,97}$/.test(endpointId))
    throw new UsageError(`--endpoint takes a webhook endpoint id (we_…), not "${endpointId}".`);
  const apiKey = env.SIGNALBOX_API_KEY?.trim();
  if (!apiKey)
    throw new UsageError(
      "SIGNALBOX_API_KEY is not set: create an API key (scopes inbox:read, and inbox:ack unless --no-ack) and export it.",
    );
  const serviceUrl = httpUrl(env.SIGNALBOX_URL?.trim() || DEFAULT_SERVICE_URL, "SIGNALBOX_URL");
  const receiver = httpUrl(receiverUrlText(forwardTo), "--forward-to");
  if (receiver.origin === serviceUrl.origin && receiver.pathname.startsWith(ingestPathPrefix()))
    throw new UsageError(
      "--forward-to is a Signalbox ingest address: every forward would come back as a new delivery, forever.",
    );
  return {
    kind: "listen",
    options: { forwardTo: receiver, endpointId: endpointId ?? null, acknowledge, apiKey, serviceUrl },
  };
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return [text.slice(0, at), text.slice(at + 1)];
}

/** `3000` → `http://localhost:3000`; `localhost:3000/hooks` → `http://localhost:3000/hooks`; a URL stays. */
function receiverUrlText(text: string): string {
  if (/^\d{1,5}$/.test(text)) return `http://localhost:${text}`;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
}

function httpUrl(text: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${name} is not a URL: "${text}".`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`${name} must be an http:// or https:// URL, not "${text}".`);
  if (!url.hostname) throw new UsageError(`${name} has no host: "${text}".`);
  return url;
}

function ingestPathPrefix(): string {
  return ingestDeliveryContract.path.slice(0, ingestDeliveryContract.path.indexOf("{"));
}
