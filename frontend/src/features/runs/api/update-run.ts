import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Run, Schema } from "../../../lib/api/types";
import { runQueryOptions } from "./get-run";
import { runsQueryKey } from "./list-runs";

export type RunUpdate = Schema<"RunUpdate">;

/** PATCH /runs/{id}: the run's label and note (null clears). */
export function updateRun({ id, body }: { id: number; body: RunUpdate }): Promise<Run> {
  return apiRequest<Run>(`/runs/${id}`, { method: "PATCH", json: body });
}

export function useUpdateRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRun,
    onSuccess: (run) => {
      queryClient.setQueryData(runQueryOptions(run.id).queryKey, run);
      return queryClient.invalidateQueries({ queryKey: [...runsQueryKey, "list"] });
    },
  });
}
