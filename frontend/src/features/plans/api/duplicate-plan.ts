import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Plan } from "../../../lib/api/types";
import { plansQueryKey } from "./list-plans";

/** POST /plans/{id}/duplicate: a new plan named "<name> (copy)" unless a name is given. */
export function duplicatePlan({ id, name }: { id: number; name?: string }): Promise<Plan> {
  return apiRequest<Plan>(`/plans/${id}/duplicate`, { method: "POST", json: name ? { name } : {} });
}

export function useDuplicatePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: duplicatePlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: plansQueryKey }),
  });
}
