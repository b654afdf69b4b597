import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";
import { type Schedule, schedulesQueryKey } from "./list-schedules";

export type ScheduleCreate = Schema<"ScheduleCreate">;

/** POST /schedules: slots are owed from now on; runs start with the creator's rights. */
export function createSchedule(body: ScheduleCreate): Promise<Schedule> {
  return apiRequest<Schedule>("/schedules", { method: "POST", json: body });
}

export function useCreateSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSchedule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: schedulesQueryKey }),
  });
}
