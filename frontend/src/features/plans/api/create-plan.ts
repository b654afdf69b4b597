import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Plan, PlanCreate } from "../../../lib/api/types";
import { plansQueryKey } from "./list-plans";

export function createPlan(body: PlanCreate): Promise<Plan> {
  return apiRequest<Plan>("/plans", { method: "POST", json: body });
}

export function useCreatePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: plansQueryKey }),
  });
}
