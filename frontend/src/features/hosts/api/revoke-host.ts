import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Host } from "../../../lib/api/types";
import { hostsQueryKey } from "./list-hosts";

/** POST /hosts/{id}/revoke (owners): its token and broker user stop at once; its queued runs fail. */
export function revokeHost(id: number): Promise<Host> {
  return apiRequest<Host>(`/hosts/${id}/revoke`, { method: "POST" });
}

export function useRevokeHost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeHost,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: hostsQueryKey }),
  });
}
