import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Health } from "../../../lib/api/types";

export function healthQueryOptions() {
  return queryOptions({
    queryKey: ["health"],
    queryFn: ({ signal }) => apiRequest<Health>("/health", { signal, auth: false }),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function useHealth() {
  return useQuery(healthQueryOptions());
}
