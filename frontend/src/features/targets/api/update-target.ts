import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Target, TargetUpdate } from "../../../lib/api/types";
import { targetsQueryKey } from "./list-targets";

export interface UpdateTargetInput {
  id: number;
  changes: TargetUpdate;
}

/** PATCH /targets/{id}: labels, and `destructive` (team owners, block devices only). */
export function updateTarget({ id, changes }: UpdateTargetInput): Promise<Target> {
  return apiRequest<Target>(`/targets/${id}`, { method: "PATCH", json: changes });
}

export function useUpdateTarget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTarget,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: targetsQueryKey }),
  });
}
