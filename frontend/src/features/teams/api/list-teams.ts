import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export const teamsQueryKey = ["teams"] as const;

export function listTeamsQueryOptions() {
  return queryOptions({
    queryKey: [...teamsQueryKey, "list"],
    queryFn: ({ signal }) => apiRequest<Schema<"TeamList">>("/teams", { signal }),
    staleTime: 60_000,
  });
}

export function useTeams() {
  return useQuery(listTeamsQueryOptions());
}
