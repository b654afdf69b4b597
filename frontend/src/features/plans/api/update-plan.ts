import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Plan, Schema } from "../../../lib/api/types";
import { plansQueryKey } from "./list-plans";

export type PlanUpdate = Schema<"PlanUpdate">;

/** PATCH /plans/{id}: new jobs make a new version; runs keep the one they ran. */
export function updatePlan({ id, body }: { id: number; body: PlanUpdate }): Promise<Plan> {
  return apiRequest<Plan>(`/plans/${id}`, { method: "PATCH", json: body });
}

export function useUpdatePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: plansQueryKey }),
  });
}
