import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { createQueryClient } from "../lib/query-client";
import { forgetSession, onSessionEnded } from "../lib/session";
import { ErrorBoundary } from "./error-boundary";

/** Query cache and error boundary; the cache is emptied when the session ends (sign-out, any 401). */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  useEffect(() => onSessionEnded(() => forgetSession(client)), [client]);
  return (
    <QueryClientProvider client={client}>
      <ErrorBoundary>{children}</ErrorBoundary>
    </QueryClientProvider>
  );
}
