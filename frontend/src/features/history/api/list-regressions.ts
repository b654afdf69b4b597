import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { QueryOf, Schema } from "../../../lib/api/types";
import { historyQueryKey } from "./get-trend";

export type ChangePoint = Schema<"ChangePointOut">;
export type RegressionParams = QueryOf<"/api/v1/regressions">;

/** GET /regressions: the team's changes, newest first, and how many regressions await review. */
export function regressionsQueryOptions(params: RegressionParams = {}) {
  return queryOptions({
    queryKey: [...historyQueryKey, "regressions", params],
    queryFn: ({ signal }) => apiRequest<Schema<"ChangePointList">>("/regressions", { query: { ...params }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useRegressions(params?: RegressionParams) {
  return useQuery(regressionsQueryOptions(params));
}
