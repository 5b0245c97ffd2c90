import type { EngineDetection, EnginePattern } from "./fingerprint-engine";

/*
 * Evidence for one detection: the kind of clue and what matched, short enough to show, never a cookie's value.
 */

/** Evidence quotes what matched; a long header, TXT record or script body is shortened to this. */
const MAX_EVIDENCE_CHARS = 120;

/**
 * E.g. 'meta generator "WordPress 6.4.2"', 'header x-powered-by: PHP/8.2.12', 'script /wp-includes/js/jquery.min.js',
 * 'dom "link[href*='fonts.g']" href "https://fonts.googleapis.com/css2?family=Inter"'. `scriptSrcAsWritten` maps the
 * absolute script URLs the engine saw back to what the page wrote.
 */
export function describeDetection(detection: EngineDetection, scriptSrcAsWritten: ReadonlyMap<string, string>): string {
  const { type, value, match, selector, attribute } = detection.pattern;
  const key = patternKey(detection.technology, type, detection.pattern);
  switch (type) {
    case "meta":
      return `meta ${key ?? "tag"} "${shorten(value)}"`;
    case "headers":
      return `header ${key ?? "response"}: ${shorten(value)}`;
    case "cookies":
      // The name is the clue; cookie values can identify a visitor and stay out of evidence.
      return `cookie ${key ?? "set by the site"}`;
    case "dns":
      return `dns ${(key ?? "record").toUpperCase()} ${shorten(value)}`;
    case "scriptSrc":
      return `script ${shorten(scriptSrcAsWritten.get(value) ?? value)}`;
    case "scripts":
      return `inline script "${shorten(match)}"`;
    case "url":
      return `url ${shorten(value)}`;
    case "dom": {
      const element = `dom "${shorten(selector ?? "")}"`;
      if (attribute !== undefined) return `${element} ${attribute} "${shorten(value)}"`;
      return value === "" ? element : `${element} text "${shorten(match)}"`;
    }
    default:
      // html, text and css: the matched excerpt says more than the whole document would.
      return `${type} "${shorten(match)}"`;
  }
}

/** For keyed clues (a header name, meta name, cookie name, DNS record type): the key whose pattern matched. */
function patternKey(
  technology: EngineDetection["technology"],
  type: string,
  pattern: EnginePattern,
): string | undefined {
  const byKey = technology[type];
  if (typeof byKey !== "object" || byKey === null || Array.isArray(byKey)) return undefined;
  for (const [key, patterns] of Object.entries(byKey as Record<string, EnginePattern[]>)) {
    // The engine copies the compiled pattern into the detection, so the RegExp object itself identifies it.
    if (patterns.some((candidate) => candidate.regex === pattern.regex)) return key;
  }
  return undefined;
}

function shorten(text: string): string {
  const single = text.replace(/\s+/g, " ").trim();
  return single.length > MAX_EVIDENCE_CHARS ? `${single.slice(0, MAX_EVIDENCE_CHARS - 1)}…` : single;
}
