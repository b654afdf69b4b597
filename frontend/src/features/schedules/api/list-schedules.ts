import { queryOptions, useQuery } from "@tanstack/react-query";
import { fetchAllPages } from "../../../lib/all-pages";
import type { Schema } from "../../../lib/api/types";

export type Schedule = Schema<"ScheduleOut">;
export type Firing = Schema<"FiringOut">;

export const schedulesQueryKey = ["schedules"] as const;

export function listSchedulesQueryOptions() {
  return queryOptions({
    queryKey: [...schedulesQueryKey, "list"],
    queryFn: ({ signal }) => fetchAllPages<Schema<"ScheduleList">>("/schedules", { signal }),
  });
}

/** GET /schedules: every schedule of the team with its next slots and latest firing. */
export function useSchedules() {
  return useQuery(listSchedulesQueryOptions());
}
