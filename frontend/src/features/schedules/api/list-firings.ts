import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";
import { schedulesQueryKey } from "./list-schedules";

export function listFiringsQueryOptions(scheduleId: number) {
  return queryOptions({
    queryKey: [...schedulesQueryKey, scheduleId, "firings"],
    queryFn: ({ signal }) =>
      apiRequest<Schema<"FiringList">>(`/schedules/${scheduleId}/firings`, { query: { limit: 50 }, signal }),
  });
}

/** GET /schedules/{id}/firings: every slot, started, missed or failed, latest first. */
export function useFirings(scheduleId: number) {
  return useQuery(listFiringsQueryOptions(scheduleId));
}
