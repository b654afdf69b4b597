import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";
import { type Schedule, schedulesQueryKey } from "./list-schedules";

export type ScheduleUpdate = Schema<"ScheduleUpdate">;

/** PATCH /schedules/{id}: enabling again owes slots from now on, not those passed while disabled. */
export function updateSchedule({ id, body }: { id: number; body: ScheduleUpdate }): Promise<Schedule> {
  return apiRequest<Schedule>(`/schedules/${id}`, { method: "PATCH", json: body });
}

export function useUpdateSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSchedule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: schedulesQueryKey }),
  });
}
