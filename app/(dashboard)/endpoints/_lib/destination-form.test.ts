import { describe, expect, it } from "vitest";
import { ApiClientError } from "@/lib/client/api-client";
import type { Destination } from "@/app/(dashboard)/_hooks/use-destination-list";
import {
  destinationFormErrors,
  destinationFormValues,
  emptyDestinationForm,
  toDestinationBody,
  type DestinationFormValues,
  type HeaderRow,
} from "./destination-form";

const form = (change: Partial<DestinationFormValues>): DestinationFormValues => ({
  ...emptyDestinationForm(),
  url: "https://example.com/hooks",
  ...change,
});
const rows = (...pairs: [string, string][]): HeaderRow[] => pairs.map(([name, value], key) => ({ key, name, value }));

describe("toDestinationBody", () => {
  it("sends the URL and switches, leaves empty numbers to the service's defaults and means no rate limit", () => {
    expect(toDestinationBody(form({ url: "  https://example.com/hooks " }))).toEqual({
      ok: true,
      body: {
        url: "https://example.com/hooks",
        headers: {},
        rateLimitPerSecond: null,
        autoAcknowledge: false,
        ordered: false,
      },
    });
  });

  it("maps every field: numbers parsed, retry grouped, header rows into an object", () => {
    const result = toDestinationBody(
      form({
        headers: rows(["Authorization", " Bearer abc "], ["X-Team", "billing"]),
        timeoutMs: "5000",
        maxAttempts: " 3 ",
        maxAgeSeconds: "3600",
        rateLimitPerSecond: "25",
        autoAcknowledge: true,
        ordered: true,
      }),
    );
    expect(result).toEqual({
      ok: true,
      body: {
        url: "https://example.com/hooks",
        headers: { Authorization: "Bearer abc", "X-Team": "billing" },
        timeoutMs: 5000,
        retry: { maxAttempts: 3, maxAgeSeconds: 3600 },
        rateLimitPerSecond: 25,
        autoAcknowledge: true,
        ordered: true,
      },
    });
  });

  it("sends only the retry field that was given", () => {
    const result = toDestinationBody(form({ maxAgeSeconds: "600" }));
    expect(result.ok && result.body.retry).toEqual({ maxAgeSeconds: 600 });
  });

  it("ignores blank header rows", () => {
    const result = toDestinationBody(form({ headers: rows(["", ""], ["X-A", "1"], ["  ", " "]) }));
    expect(result.ok && result.body.headers).toEqual({ "X-A": "1" });
  });

  it("refuses with the contract's words, on the fields they concern", () => {
    const result = toDestinationBody(
      form({ url: "ftp://example.com", timeoutMs: "500", maxAttempts: "21", rateLimitPerSecond: "0" }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.form).toBeNull();
    expect(result.errors.fields).toEqual({
      url: "must be an http:// or https:// URL without credentials or #fragment",
      timeoutMs: "must be at least 1000",
      "retry.maxAttempts": "must be at most 20",
      rateLimitPerSecond: "must be at least 1",
    });
  });

  it("says a number field holds no whole number, once", () => {
    const result = toDestinationBody(form({ timeoutMs: "10s", maxAgeSeconds: "1.5" }));
    expect(!result.ok && result.errors.fields).toEqual({
      timeoutMs: "must be a whole number",
      "retry.maxAgeSeconds": "must be a whole number",
    });
  });

  it("marks header rows: reserved, invalid or repeated names, and a value without a name", () => {
    const result = toDestinationBody(
      form({
        headers: rows(
          ["X-Ok", "1"],
          ["Content-Length", "5"],
          ["bad name", "x"],
          ["", "orphan"],
          ["X-Ok", "2"],
          ["x-ok", "3"],
        ),
      }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.rows).toEqual([
      undefined,
      "is set by Signalbox and cannot be overridden",
      "is not a header name",
      "enter the header's name",
      "is repeated (names ignore case)",
      "is repeated (names ignore case)",
    ]);
    expect(result.errors.fields).toEqual({});
  });

  it("refuses more headers than a destination may have", () => {
    const many = rows(...Array.from({ length: 21 }, (_v, index): [string, string] => [`X-${index}`, "v"]));
    const result = toDestinationBody(form({ headers: many }));
    expect(!result.ok && result.errors.fields.headers).toBe("at most 20 headers");
  });
});

describe("destinationFormErrors", () => {
  const headerRows = rows(["X-A", "1"], ["Host", "h"]);

  it("puts the API's details under their fields and header rows", () => {
    const error = new ApiClientError(400, "validation_error", "Invalid request body: url, headers.Host.", [
      { path: "url", message: "is a private address" },
      { path: "headers.Host", message: "is set by Signalbox and cannot be overridden" },
    ]);
    expect(destinationFormErrors(error, headerRows)).toEqual({
      form: null,
      fields: { url: "is a private address" },
      rows: [undefined, "is set by Signalbox and cannot be overridden"],
    });
  });

  it("keeps what no field shows in the form's message", () => {
    const error = new ApiClientError(400, "validation_error", "Invalid request body.", [
      { path: "headers.X-Gone", message: "is not a header name" },
      { path: "", message: "send at least one field to change" },
    ]);
    expect(destinationFormErrors(error, headerRows).form).toBe(
      "Invalid request body. headers.X-Gone: is not a header name; send at least one field to change",
    );
  });

  it("says what went wrong when there are no details", () => {
    const error = new ApiClientError(404, "not_found", "No webhook endpoint we_1.");
    expect(destinationFormErrors(error, headerRows)).toEqual({
      form: "No webhook endpoint we_1.",
      fields: {},
      rows: [],
    });
  });
});

describe("destinationFormValues", () => {
  it("starts the edit form from the destination, round-tripping to the same settings", () => {
    const destination = {
      url: "https://example.com/in",
      headers: { Authorization: "Bearer t" },
      timeoutMs: 10_000,
      retry: { maxAttempts: 8, maxAgeSeconds: 86_400 },
      rateLimitPerSecond: null,
      autoAcknowledge: true,
      ordered: false,
    } as unknown as Destination;
    const values = destinationFormValues(destination);
    expect(values.headers).toEqual([{ key: 0, name: "Authorization", value: "Bearer t" }]);
    expect(toDestinationBody(values)).toEqual({
      ok: true,
      body: {
        url: "https://example.com/in",
        headers: { Authorization: "Bearer t" },
        timeoutMs: 10_000,
        retry: { maxAttempts: 8, maxAgeSeconds: 86_400 },
        rateLimitPerSecond: null,
        autoAcknowledge: true,
        ordered: false,
      },
    });
  });
});
