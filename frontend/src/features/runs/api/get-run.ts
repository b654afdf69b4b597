import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Run } from "../../../lib/api/types";
import { isRunActive } from "../../../lib/status";
import { runsQueryKey } from "./list-runs";

export const RUN_POLL_MS = 1_000;
/** While the event stream pushes status changes, polling is only a fallback. */
export const RUN_POLL_STREAMING_MS = 5_000;

export function runQueryOptions(id: number, { streaming = false }: { streaming?: boolean } = {}) {
  return queryOptions({
    queryKey: [...runsQueryKey, "detail", id],
    queryFn: ({ signal }) => apiRequest<Run>(`/runs/${id}`, { signal }),
    // Poll while the run can still change (slowly while events arrive); a terminal run is final.
    refetchInterval: (query) => {
      const run = query.state.data;
      if (query.state.status === "error") return false;
      if (run && !isRunActive(run.status)) return false;
      return streaming ? RUN_POLL_STREAMING_MS : RUN_POLL_MS;
    },
    refetchIntervalInBackground: false,
  });
}

export function useRun(id: number, options?: { streaming?: boolean }) {
  return useQuery(runQueryOptions(id, options));
}
