"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { ApiClientError } from "@/lib/client/api-client";

/** Errors that another try cannot fix (4xx) are not retried; others (network, 5xx) twice. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiClientError && error.status >= 400 && error.status < 500 && error.status !== 429)
    return false;
  return failureCount < 2;
}

/** `onUnauthorized`: a session that expired (or was signed out in another tab) answers 401. */
function makeQueryClient(onUnauthorized: (queryClient: QueryClient) => void) {
  const onApiError = (error: unknown) => {
    if (error instanceof ApiClientError && error.status === 401) onUnauthorized(queryClient);
  };
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: onApiError }),
    mutationCache: new MutationCache({ onError: onApiError }),
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 10_000 },
      mutations: { retry: false },
    },
  });
  return queryClient;
}

export function Providers({ children }: { children: ReactNode }) {
  const router = useRouter();
  // One client per browser tab (and per server render), created once.
  const [queryClient] = useState(() =>
    makeQueryClient((client) => {
      // Nothing of the old session stays cached for whoever signs in next in this tab.
      client.clear();
      router.replace("/sign-in");
    }),
  );
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
