import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";
import { historyQueryKey } from "./get-trend";

export type Series = Schema<"SeriesOut">;

/** GET /history/series: the jobs and directions measured on a target. */
export function seriesQueryOptions(targetId: number | null) {
  return queryOptions({
    queryKey: [...historyQueryKey, "series", targetId],
    queryFn: ({ signal }) =>
      apiRequest<Schema<"SeriesList">>("/history/series", { query: { target_id: targetId }, signal }),
    enabled: targetId !== null,
  });
}

export function useSeries(targetId: number | null) {
  return useQuery(seriesQueryOptions(targetId));
}
