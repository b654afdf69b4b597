import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Verdict } from "../../../lib/api/types";
import { resultsQueryKey } from "./list-results";

/** GET /results/{id}/verdict: the result against the spec and its run's previous run, its series, worst finding. */
export function resultVerdictQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...resultsQueryKey, "verdict", id],
    queryFn: ({ signal }) => apiRequest<Verdict>(`/results/${id}/verdict`, { signal }),
  });
}

export function useResultVerdict(id: number) {
  return useQuery(resultVerdictQueryOptions(id));
}
