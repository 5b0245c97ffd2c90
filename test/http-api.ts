import { expect } from "vitest";
import type { ErrorBody } from "@/lib/contracts/errors";

/** ISO 8601 UTC with milliseconds, as every timestamp of the API is written. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A raw API request for the error cases the typed client would refuse to send: status, parsed JSON (or undefined),
 * body text and headers. A string body is sent as is; anything else as JSON.
 */
export async function requestApi(baseUrl: string, key: string | null, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return readResponse(response);
}

/** A request with the given headers (a JSON body when one is given), read with `readResponse`. */
export async function sendApi(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return readResponse(response);
}

export type ApiAnswer = Awaited<ReturnType<typeof readResponse>>;

/** The `data` of a success envelope, after checking the status. */
export function dataOf<T>(answer: ApiAnswer, status = 200): T {
  expect(answer.status, answer.text).toBe(status);
  return (answer.json as { data: T }).data;
}

/** Checks an error answer's status and code. */
export function expectError(answer: ApiAnswer, status: number, code: string): void {
  expect(answer.status, answer.text).toBe(status);
  expect(errorOf(answer.json).code).toBe(code);
}

/** Status, body text, the body as JSON (undefined when it is not JSON) and headers of an answer. */
export async function readResponse(response: Response) {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text, headers: response.headers };
}

/** The `error` of a documented error body (and asserts the body is one). */
export function errorOf(json: unknown): ErrorBody["error"] {
  expect(json).toMatchObject({ success: false, error: { code: expect.any(String), message: expect.any(String) } });
  return (json as ErrorBody).error;
}

/** The distinct field paths named by a validation error, sorted. */
export function detailPaths(json: unknown): string[] {
  return [...new Set((errorOf(json).details ?? []).map((detail) => detail.path))].sort();
}

/** Posts a webhook to the app's ingest address (expects 200) and returns the new delivery's id. */
export async function postWebhook(
  baseUrl: string,
  endpointId: string,
  body: string | Uint8Array,
  headers: Record<string, string>,
): Promise<string> {
  const response = await fetch(`${baseUrl}/webhooks/ingest/${endpointId}`, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : new Uint8Array(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { deliveryId: string }).deliveryId;
}

/** An API answer's text exactly as sent (expects 200): no JSON.parse between the wire and the assertion. */
export async function answerText(baseUrl: string, key: string, path: string, init: RequestInit = {}): Promise<string> {
  const response = await fetch(`${baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, ...init.headers },
  });
  const text = await response.text();
  expect(response.status, text.slice(0, 300)).toBe(200);
  return text;
}
