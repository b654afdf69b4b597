import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

/** POST /hosts/{id}/remove (owners): gone from lists and pickers, credential revoked; runs and results stay. */
export function removeHost(id: number): Promise<void> {
  return apiRequest<void>(`/hosts/${id}/remove`, { method: "POST" });
}

export function useRemoveHost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeHost,
    // Its targets leave the pickers too.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
