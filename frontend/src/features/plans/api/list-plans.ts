import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { PageParams, Schema } from "../../../lib/api/types";

export const plansQueryKey = ["plans"] as const;

export function listPlansQueryOptions({ limit = 100, offset = 0 }: PageParams = {}) {
  return queryOptions({
    queryKey: [...plansQueryKey, "list", { limit, offset }],
    queryFn: ({ signal }) => apiRequest<Schema<"PlanList">>("/plans", { query: { limit, offset }, signal }),
  });
}

export function usePlans(params?: PageParams) {
  return useQuery(listPlansQueryOptions(params));
}
