import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { resultsQueryKey } from "./list-results";

/** DELETE /results/{id} (owners): the result leaves the history; the audit log keeps who did it. */
export function deleteResult(id: number): Promise<void> {
  return apiRequest<void>(`/results/${id}`, { method: "DELETE" });
}

export function useDeleteResult() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteResult,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resultsQueryKey }),
  });
}
