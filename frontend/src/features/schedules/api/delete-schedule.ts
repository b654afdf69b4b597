import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { schedulesQueryKey } from "./list-schedules";

/** DELETE /schedules/{id}: the runs it started stay. */
export function deleteSchedule(id: number): Promise<void> {
  return apiRequest<void>(`/schedules/${id}`, { method: "DELETE" });
}

export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSchedule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: schedulesQueryKey }),
  });
}
