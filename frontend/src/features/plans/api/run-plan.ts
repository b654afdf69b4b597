import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Run, RunCreate } from "../../../lib/api/types";

/** POST /runs with a saved plan: "Run now" from the plans list (runs are another feature's). */
export function runPlan(body: RunCreate): Promise<Run> {
  return apiRequest<Run>("/runs", { method: "POST", json: body });
}

export function useRunPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runPlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["runs", "list"] }),
  });
}
