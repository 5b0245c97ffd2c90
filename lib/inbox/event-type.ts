import { EVENT_TYPE_BODY_LIMIT, MAX_EVENT_TYPE_LENGTH } from "@/lib/contracts/webhooks";
import { contentCodings } from "./content-encoding";
import { jsonElement, jsonMembers, jsonRoot, jsonString, type JsonSpan } from "./json-members";
import { isJsonContentType } from "./payload";

/** Where an endpoint says its sender puts the event type: a request header, or a dotted path into a JSON body. */
export type EventTypeSource = { header: string } | { jsonPath: string };

/** An endpoint's event type source from its two columns (at most one is set). */
export function eventTypeSource(header: string | null, jsonPath: string | null): EventTypeSource | null {
  if (header !== null) return { header };
  return jsonPath !== null ? { jsonPath } : null;
}

export interface EventTypeInput {
  /** Request headers: lower-cased names, values as received (repeated headers joined with ", "). */
  headers: Readonly<Record<string, string | undefined>>;
  /** The body exactly as received. */
  body: Buffer;
  contentType: string | null;
  /** The endpoint's own setting, tried first. */
  source: EventTypeSource | null;
}

const isFormContentType = (contentType: string | null) =>
  contentType !== null && /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType);

/**
 * The body as a JSON document, read lazily and at most once: a JSON body, or the JSON in the `payload` field of a form
 * body (Slack interactivity, GitHub's form content type). Only bodies of at most EVENT_TYPE_BODY_LIMIT bytes sent
 * without a Content-Encoding are read: ingest does not decode compressed bodies, and a larger body costs more to scan
 * than an event type is worth on the hot path.
 */
class BodyReader {
  private form: URLSearchParams | null | undefined;
  private document: { text: Buffer; root: JsonSpan } | null | undefined;

  constructor(private readonly input: EventTypeInput) {}

  private readable(): boolean {
    const { body, headers } = this.input;
    return body.byteLength <= EVENT_TYPE_BODY_LIMIT && contentCodings(headers["content-encoding"]).length === 0;
  }

  formFields(): URLSearchParams | null {
    if (this.form === undefined) {
      this.form =
        this.readable() && isFormContentType(this.input.contentType)
          ? new URLSearchParams(this.input.body.toString("utf8"))
          : null;
    }
    return this.form;
  }

  json(): { text: Buffer; root: JsonSpan } | null {
    if (this.document === undefined) {
      const payload = this.formFields()?.get("payload");
      const text =
        payload != null
          ? Buffer.from(payload, "utf8")
          : this.readable() && isJsonContentType(this.input.contentType)
            ? this.input.body
            : null;
      const root = text && jsonRoot(text);
      this.document = text && root ? { text, root } : null;
    }
    return this.document;
  }

  /** The top-level string members named, by position; undefined for each one absent or not a string. */
  strings(keys: readonly string[]): (string | undefined)[] {
    const document = this.json();
    const spans = document && jsonMembers(document.text, document.root, keys);
    return keys.map((_key, index) => {
      const span = spans?.[index];
      return (span && jsonString(document!.text, span)) ?? undefined;
    });
  }

  /** The string at a dotted path (`data.object.type`, `items.0.type`: digits index an array); undefined if none. */
  stringAt(path: string): string | undefined {
    const document = this.json();
    if (!document) return undefined;
    let span: JsonSpan | null | undefined = document.root;
    for (const segment of path.split(".")) {
      if (!span) return undefined;
      span =
        document.text[span.start] === 0x5b && /^\d{1,9}$/.test(segment)
          ? jsonElement(document.text, span, Number(segment))
          : jsonMembers(document.text, span, [segment])?.[0];
    }
    return (span && jsonString(document.text, span)) ?? undefined;
  }
}

/** GitHub's event header with the payload's `action` (`issues` + `opened` → `issues.opened`); `push` has none. */
function githubType(event: string, body: BodyReader): string {
  const [action] = body.strings(["action"]);
  return action === undefined ? event : `${event}.${action}`;
}

/**
 * Twilio posts forms signed with `X-Twilio-Signature`; what happened is a status field. Voice callbacks carry
 * `CallStatus` (→ `call.completed`), message status callbacks `MessageStatus` (→ `message.delivered`), incoming
 * messages only `SmsStatus` (→ `message.received`), recording callbacks `RecordingStatus` (→ `recording.completed`).
 */
function twilioType(body: BodyReader): string | undefined {
  const form = body.formFields();
  if (!form) return undefined;
  const call = form.get("CallStatus");
  if (call) return `call.${call}`;
  const message = form.get("MessageStatus") ?? form.get("SmsStatus");
  if (message) return `message.${message}`;
  const recording = form.get("RecordingStatus");
  return recording ? `recording.${recording}` : undefined;
}

/**
 * A body's own type: a top-level string `type` (Stripe events, Standard Webhooks and Svix, structured CloudEvents,
 * Slack's `url_verification` and interactivity payloads, and anyone else), except that Slack's Events API wraps its
 * events (`type: "event_callback"` → `event.type`); else `event`, `event_type` or `eventType`.
 */
function documentType(body: BodyReader): string | undefined {
  const [type, event, eventType, camelEventType] = body.strings(["type", "event", "event_type", "eventType"]);
  if (type === "event_callback") return body.stringAt("event.type") ?? type;
  return type ?? event ?? eventType ?? camelEventType;
}

/** Trimmed, at most MAX_EVENT_TYPE_LENGTH characters, control characters (NUL included) replaced; null if empty. */
function stored(value: string | undefined): string | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  return trimmed
    .slice(0, MAX_EVENT_TYPE_LENGTH)
    .toWellFormed()
    .replace(/[\u0000-\u001f\u007f]/g, "\uFFFD");
}

/**
 * A delivery's event type, or null. In order: the endpoint's own source; a type carried by headers (GitHub, with
 * the payload's `action`; Shopify; GitLab; binary-mode CloudEvents), so a body is only read when a header does not
 * settle it; Twilio's status fields; the body's own type (`documentType`). Bodies are read only as BodyReader says.
 * Pure and never throws: anything it cannot read is no type.
 */
export function eventTypeOf(input: EventTypeInput): string | null {
  try {
    const { headers, source } = input;
    const body = new BodyReader(input);
    const custom = source && ("header" in source ? headers[source.header] : body.stringAt(source.jsonPath));
    if (custom?.trim()) return stored(custom);
    const github = headers["x-github-event"];
    if (github) return stored(githubType(github, body));
    const fromHeaders = headers["x-shopify-topic"] ?? headers["x-gitlab-event"] ?? headers["ce-type"];
    if (fromHeaders) return stored(fromHeaders);
    const twilio = headers["x-twilio-signature"] === undefined ? undefined : twilioType(body);
    return stored(twilio ?? documentType(body));
  } catch {
    return null;
  }
}
