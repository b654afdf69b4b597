import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Page, PageParams, Plan } from "../../../lib/api-types";

export const plansQueryKey = ["plans"] as const;

export function listPlansQueryOptions({ limit = 100, offset = 0 }: PageParams = {}) {
  return queryOptions({
    queryKey: [...plansQueryKey, "list", { limit, offset }],
    queryFn: ({ signal }) => apiRequest<Page<Plan>>("/plans", { query: { limit, offset }, signal }),
  });
}

export function usePlans(params?: PageParams) {
  return useQuery(listPlansQueryOptions(params));
}
