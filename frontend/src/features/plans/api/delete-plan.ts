import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { plansQueryKey } from "./list-plans";

/** DELETE /plans/{id}: its runs and results stay, with the plan's name. */
export function deletePlan(id: number): Promise<void> {
  return apiRequest<void>(`/plans/${id}`, { method: "DELETE" });
}

export function useDeletePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: plansQueryKey }),
  });
}
