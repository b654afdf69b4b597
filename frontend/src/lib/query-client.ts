import { QueryClient } from "@tanstack/react-query";
import { isApiError } from "./api-client";

/** Client errors (4xx) are answers, not glitches: never retry them. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 5_000, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
}
