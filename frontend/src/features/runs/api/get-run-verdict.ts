import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Verdict } from "../../../lib/api/types";
import { runsQueryKey } from "./list-runs";

/** GET /runs/{id}/verdict: its figures against the spec and the previous run, regressions, worst finding. */
export function runVerdictQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...runsQueryKey, "verdict", id],
    queryFn: ({ signal }) => apiRequest<Verdict>(`/runs/${id}/verdict`, { signal }),
  });
}

/** Asked once the run has results (enabled), and again when their number changes (resultCount in the key). */
export function useRunVerdict(id: number, { enabled, resultCount }: { enabled: boolean; resultCount: number }) {
  const options = runVerdictQueryOptions(id);
  return useQuery({ ...options, queryKey: [...options.queryKey, resultCount], enabled });
}
