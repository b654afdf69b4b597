import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Result } from "../../../lib/api/types";
import { resultsQueryKey } from "./list-results";

/** GET /results/{id}: one result with its figures, percentiles, histogram, spec checks and findings. */
export function resultQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...resultsQueryKey, "detail", id],
    queryFn: ({ signal }) => apiRequest<Result>(`/results/${id}`, { signal }),
  });
}

export function useResult(id: number) {
  return useQuery(resultQueryOptions(id));
}
