import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Run } from "../../../lib/api/types";
import { isRunActive } from "../../../lib/status";
import { runsQueryKey } from "./list-runs";

export const RUN_POLL_MS = 1_000;
/** While the event stream pushes status changes, polling is only a fallback. */
export const RUN_POLL_STREAMING_MS = 5_000;

/** How long after a run stopped its page still looks for the figures its hosts send last. */
export const PARTIAL_RESULT_WAIT_MS = 30_000;

/**
 * A cancelled run that had started: its hosts upload what fio measured before it was stopped a
 * moment after the run's status changed, so its page keeps looking for a while.
 */
export function awaitsPartialResult(run: Run, now: number = Date.now()): boolean {
  if (run.status !== "cancelled") return false;
  if (!run.started_at || (run.results?.length ?? 0) > 0) return false;
  const finished = run.finished_at ? Date.parse(run.finished_at) : now;
  return now - finished < PARTIAL_RESULT_WAIT_MS;
}

export function runQueryOptions(id: number, { streaming = false }: { streaming?: boolean } = {}) {
  return queryOptions({
    queryKey: [...runsQueryKey, "detail", id],
    queryFn: ({ signal }) => apiRequest<Run>(`/runs/${id}`, { signal }),
    // Poll while the run can still change (slowly while events arrive); a terminal run is final.
    refetchInterval: (query) => {
      const run = query.state.data;
      if (query.state.status === "error") return false;
      if (run && !isRunActive(run.status)) return awaitsPartialResult(run) ? RUN_POLL_MS : false;
      return streaming ? RUN_POLL_STREAMING_MS : RUN_POLL_MS;
    },
    refetchIntervalInBackground: false,
  });
}

export function useRun(id: number, options?: { streaming?: boolean }) {
  return useQuery(runQueryOptions(id, options));
}
