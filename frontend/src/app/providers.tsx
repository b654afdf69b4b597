import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { getToken, subscribeToken } from "../lib/auth-token";
import { createQueryClient } from "../lib/query-client";
import { ErrorBoundary } from "./error-boundary";

/** Query cache and error boundary; the cache is emptied when the token goes (sign-out, 401). */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  useEffect(
    () =>
      subscribeToken(() => {
        if (!getToken()) client.clear();
      }),
    [client],
  );
  return (
    <QueryClientProvider client={client}>
      <ErrorBoundary>{children}</ErrorBoundary>
    </QueryClientProvider>
  );
}
