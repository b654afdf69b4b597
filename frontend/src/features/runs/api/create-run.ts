import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Run, RunCreate } from "../../../lib/api/types";
import { runQueryOptions } from "./get-run";
import { runsQueryKey } from "./list-runs";

export function createRun(body: RunCreate): Promise<Run> {
  return apiRequest<Run>("/runs", { method: "POST", json: body });
}

export function useCreateRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRun,
    onSuccess: (run) => {
      queryClient.setQueryData(runQueryOptions(run.id).queryKey, run);
      return queryClient.invalidateQueries({ queryKey: [...runsQueryKey, "list"] });
    },
  });
}
