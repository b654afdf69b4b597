import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Host, HostUpdate } from "../../../lib/api/types";
import { hostsQueryKey } from "./list-hosts";

export interface UpdateHostInput {
  id: number;
  changes: HostUpdate;
}

/** PATCH /hosts/{id}: replace the host's labels (members and owners). */
export function updateHost({ id, changes }: UpdateHostInput): Promise<Host> {
  return apiRequest<Host>(`/hosts/${id}`, { method: "PATCH", json: changes });
}

export function useUpdateHost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateHost,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: hostsQueryKey }),
  });
}
