import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Run } from "../../../lib/api-types";
import { isRunActive } from "../../../lib/status";
import { runsQueryKey } from "./list-runs";

export const RUN_POLL_MS = 1_000;

export function runQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...runsQueryKey, "detail", id],
    queryFn: ({ signal }) => apiRequest<Run>(`/runs/${id}`, { signal }),
    // Poll every second while the run can still change; a terminal run is final.
    refetchInterval: (query) => {
      const run = query.state.data;
      if (query.state.status === "error") return false;
      return !run || isRunActive(run.status) ? RUN_POLL_MS : false;
    },
    refetchIntervalInBackground: false,
  });
}

export function useRun(id: number) {
  return useQuery(runQueryOptions(id));
}
