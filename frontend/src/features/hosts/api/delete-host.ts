import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

/** DELETE /hosts/{id} (owners): only a host whose worker never connected and that has no history. */
export function deleteHost(id: number): Promise<void> {
  return apiRequest<void>(`/hosts/${id}`, { method: "DELETE" });
}

export function useDeleteHost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteHost,
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
