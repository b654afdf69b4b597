import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";
import { plansQueryKey } from "./list-plans";

export type PlanVersion = Schema<"PlanVersionOut">;

export function planVersionsQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...plansQueryKey, "versions", id],
    queryFn: ({ signal }) => apiRequest<Schema<"PlanVersionList">>(`/plans/${id}/versions`, { signal }),
  });
}

export function usePlanVersions(id: number, enabled: boolean) {
  return useQuery({ ...planVersionsQueryOptions(id), enabled });
}
