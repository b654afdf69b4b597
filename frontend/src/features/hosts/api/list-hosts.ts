import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { PageParams, Schema } from "../../../lib/api/types";

export const hostsQueryKey = ["hosts"] as const;

export function listHostsQueryOptions({ limit = 100, offset = 0 }: PageParams = {}) {
  return queryOptions({
    queryKey: [...hostsQueryKey, "list", { limit, offset }],
    queryFn: ({ signal }) => apiRequest<Schema<"HostList">>("/hosts", { query: { limit, offset }, signal }),
    // Workers heartbeat: keep status badges and "last seen" fresh.
    refetchInterval: 10_000,
  });
}

export function useHosts(params?: PageParams) {
  return useQuery(listHostsQueryOptions(params));
}
