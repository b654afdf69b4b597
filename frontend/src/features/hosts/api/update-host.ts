import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Host, HostUpdate } from "../../../lib/api/types";

export interface UpdateHostInput {
  id: number;
  changes: HostUpdate;
}

/** PATCH /hosts/{id}: rename the host (unique in the team) or replace its labels (members and owners). */
export function updateHost({ id, changes }: UpdateHostInput): Promise<Host> {
  return apiRequest<Host>(`/hosts/${id}`, { method: "PATCH", json: changes });
}

export function useUpdateHost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateHost,
    // A new name shows wherever the host does (targets, runs).
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
