import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { RunListParams, Schema } from "../../../lib/api/types";
import { isRunActive } from "../../../lib/status";

export const runsQueryKey = ["runs"] as const;
export const RUNS_POLL_MS = 2_000;
/** Without live runs, still look now and then for runs started elsewhere. */
export const RUNS_IDLE_POLL_MS = 15_000;

export function listRunsQueryOptions({ status, target_id, label, limit = 50, offset = 0 }: RunListParams = {}) {
  return queryOptions({
    queryKey: [...runsQueryKey, "list", { status, target_id, label, limit, offset }],
    queryFn: ({ signal }) =>
      apiRequest<Schema<"RunList">>("/runs", { query: { status, target_id, label, limit, offset }, signal }),
    // Follow live runs closely; slow down once none on the page is queued or running.
    refetchInterval: (query) =>
      query.state.data?.items.some((run) => isRunActive(run.status)) ? RUNS_POLL_MS : RUNS_IDLE_POLL_MS,
  });
}

export function useRuns(params?: RunListParams) {
  return useQuery(listRunsQueryOptions(params));
}
