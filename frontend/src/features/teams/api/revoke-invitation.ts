import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { invitationsQueryKey } from "./list-invitations";

/** DELETE /teams/current/invitations/{id}: the link stops working. */
export function revokeInvitation(id: number): Promise<void> {
  return apiRequest<void>(`/teams/current/invitations/${id}`, { method: "DELETE" });
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationsQueryKey }),
  });
}
