import { createApiClient, type ApiClient } from "@/lib/client/api-client";
import type { ListenOptions } from "./command-line";

/** What the parts of a running relay share. */
export interface RelayContext {
  options: ListenOptions;
  /** Calls to the service, all cancelled when `signal` aborts. */
  api: ApiClient;
  /** Aborts when the relay stops (Ctrl-C, or a failure that ends it). */
  signal: AbortSignal;
  /** One line about a delivery (standard output). */
  print: (line: string) => void;
  /** One line about the relay itself (standard error). */
  notice: (text: string) => void;
  /** [0, 1), for the backoff's jitter. */
  random: () => number;
}

/** The service's address with any path kept (a service behind a path prefix) and no trailing slash. */
export function serviceBase(options: ListenOptions): string {
  return options.serviceUrl.href.replace(/\/+$/, "");
}

/** The typed API client with the relay's key, its requests cancelled when `signal` aborts. */
export function serviceClient(options: ListenOptions, signal: AbortSignal): ApiClient {
  return createApiClient({
    baseUrl: serviceBase(options),
    apiKey: options.apiKey,
    fetch: (input, init) => fetch(input, { ...init, signal }),
  });
}
