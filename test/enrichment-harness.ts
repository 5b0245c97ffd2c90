import { createServer, type AddressInfo } from "node:net";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { creditWorkspace, setSubscriptionAllowance } from "@/lib/billing/balances";
import { createApiClient } from "@/lib/client/api-client";
import { db } from "@/lib/db/client";
import { readResponse } from "./http-api";

/*
 * What the priced-endpoint test files share: accounts with money and keys, raw requests for what the typed client
 * would not send, and a record of every response, for the scans that no provider name or secret ever reaches a client.
 */

export interface RecordedResponse {
  what: string;
  status: number;
  text: string;
  headers: [string, string][];
}

export interface RawOptions {
  key?: string | null;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Default `application/json` when there is a body; `null` sends none. */
  contentType?: string | null;
  headers?: Record<string, string>;
  /** Sent as the Authorization header instead of `Bearer <key>`. */
  authorization?: string;
}

export interface Account {
  workspaceId: string;
  liveKey: string;
  liveKeyId: string;
  testKey: string;
  testKeyId: string;
  live: ReturnType<typeof createApiClient>;
  test: ReturnType<typeof createApiClient>;
}

/** A harness for the app at `baseUrl()` (read at each call: the app starts after the harness is made). */
export function enrichmentHarness(baseUrl: () => string, workspaceName: string) {
  const recorded: RecordedResponse[] = [];

  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.clone().text();
    recorded.push({
      what: `${init?.method ?? "GET"} ${String(input)} → ${response.status}`,
      status: response.status,
      text,
      headers: [...response.headers],
    });
    return response;
  };

  /** A raw POST, for the error cases the typed client would not send. */
  async function raw(path: string, options: RawOptions = {}) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.authorization !== undefined) headers.authorization = options.authorization;
    else if (options.key) headers.authorization = `Bearer ${options.key}`;
    const contentType =
      options.contentType === undefined
        ? options.body === undefined
          ? null
          : "application/json"
        : options.contentType;
    if (contentType !== null) headers["content-type"] = contentType;
    const body =
      options.body === undefined
        ? undefined
        : typeof options.body === "string"
          ? options.body
          : JSON.stringify(options.body);
    return readResponse(await recordingFetch(`${baseUrl()}${path}`, { method: "POST", headers, body }));
  }

  /** A workspace with `subscriptionCents` of allowance left and `purchasedCents` bought, and one live and one test key. */
  async function account(subscriptionCents = 0, purchasedCents = 0): Promise<Account> {
    const workspace = await createWorkspace({ name: workspaceName });
    if (subscriptionCents > 0)
      await setSubscriptionAllowance({ workspaceId: workspace.id, allowanceCents: subscriptionCents, note: "plan" });
    if (purchasedCents > 0) await creditWorkspace({ workspaceId: workspace.id, cents: purchasedCents, note: "top-up" });
    const live = await createApiKey({ workspaceId: workspace.id, name: "live", mode: "live" });
    const test = await createApiKey({ workspaceId: workspace.id, name: "test", mode: "test" });
    return {
      workspaceId: workspace.id,
      liveKey: live.key,
      liveKeyId: live.apiKey.id,
      testKey: test.key,
      testKeyId: test.apiKey.id,
      live: createApiClient({ baseUrl: baseUrl(), apiKey: live.key, fetch: recordingFetch }),
      test: createApiClient({ baseUrl: baseUrl(), apiKey: test.key, fetch: recordingFetch }),
    };
  }

  return { recorded, recordingFetch, raw, account };
}

export async function balances(workspaceId: string) {
  return db().workspace.findUniqueOrThrow({
    where: { id: workspaceId },
    select: { subscriptionRemainingCents: true, purchasedBalanceCents: true },
  });
}

export async function usageRows(workspaceId: string) {
  return db().ledgerEntry.findMany({
    where: { workspaceId, kind: "usage" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

/** A loopback port nothing listens on: https:// to the fake sites fails at once, so the crawler falls back to http://. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
