import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Run } from "../../../lib/api/types";
import { runQueryOptions } from "./get-run";
import { runsQueryKey } from "./list-runs";

export function cancelRun(id: number): Promise<Run> {
  return apiRequest<Run>(`/runs/${id}/cancel`, { method: "POST" });
}

export function useCancelRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelRun,
    onSuccess: (run) => {
      queryClient.setQueryData(runQueryOptions(run.id).queryKey, run);
      return queryClient.invalidateQueries({ queryKey: [...runsQueryKey, "list"] });
    },
  });
}
