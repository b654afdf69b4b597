import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Run, Schema } from "../../../lib/api/types";
import { runQueryOptions } from "./get-run";
import { runsQueryKey } from "./list-runs";

export type RunAgain = Schema<"RunAgain">;

/** POST /runs/{id}/run-again: the same jobs, target and hosts (and plan version). */
export function runAgain({ id, body = {} }: { id: number; body?: RunAgain }): Promise<Run> {
  return apiRequest<Run>(`/runs/${id}/run-again`, { method: "POST", json: body });
}

export function useRunAgain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runAgain,
    onSuccess: (run) => {
      queryClient.setQueryData(runQueryOptions(run.id).queryKey, run);
      return queryClient.invalidateQueries({ queryKey: [...runsQueryKey, "list"] });
    },
  });
}
