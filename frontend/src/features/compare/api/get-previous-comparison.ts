import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Comparison } from "./get-comparison";

/** GET /compare/previous: a run against the previous run of its plan on its target. */
export function previousComparisonQueryOptions(runId: number | null) {
  return queryOptions({
    queryKey: ["compare", "previous", runId],
    queryFn: ({ signal }) => apiRequest<Comparison>("/compare/previous", { query: { run_id: runId }, signal }),
    enabled: runId !== null,
  });
}

export function usePreviousComparison(runId: number | null) {
  return useQuery(previousComparisonQueryOptions(runId));
}
