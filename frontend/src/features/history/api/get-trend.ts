import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { QueryOf, Schema } from "../../../lib/api/types";

export const historyQueryKey = ["history"] as const;

export type TrendParams = QueryOf<"/api/v1/history/trend">;
export type Trend = Schema<"TrendOut">;
export type Figure = NonNullable<TrendParams["metric"]>;
export type IoDirection = Schema<"TrendDirection">;

/** GET /history/trend: a figure of one job on one target over time, with its spec line and changes. */
export function trendQueryOptions(params: TrendParams | null) {
  return queryOptions({
    queryKey: [...historyQueryKey, "trend", params],
    queryFn: ({ signal }) => apiRequest<Trend>("/history/trend", { query: { ...params }, signal }),
    enabled: params !== null,
    placeholderData: keepPreviousData,
  });
}

export function useTrend(params: TrendParams | null) {
  return useQuery(trendQueryOptions(params));
}
