import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Me } from "../../../lib/api-types";

export function meQueryOptions() {
  return queryOptions({
    queryKey: ["auth", "me"],
    queryFn: ({ signal }) => apiRequest<Me>("/auth/me", { signal }),
    staleTime: 5 * 60_000,
  });
}

export function useMe() {
  return useQuery(meQueryOptions());
}
