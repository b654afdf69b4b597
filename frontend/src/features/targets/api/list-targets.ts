import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { PageParams, Schema } from "../../../lib/api/types";

export const targetsQueryKey = ["targets"] as const;

export function listTargetsQueryOptions({ limit = 100, offset = 0 }: PageParams = {}) {
  return queryOptions({
    queryKey: [...targetsQueryKey, "list", { limit, offset }],
    queryFn: ({ signal }) => apiRequest<Schema<"TargetList">>("/targets", { query: { limit, offset }, signal }),
  });
}

export function useTargets(params?: PageParams) {
  return useQuery(listTargetsQueryOptions(params));
}
