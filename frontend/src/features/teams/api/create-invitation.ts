import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { InvitationCreate, InvitationCreated } from "../../../lib/api/types";
import { invitationsQueryKey } from "./list-invitations";

/** POST /teams/current/invitations: the answer carries the link's token, shown only now. */
export function createInvitation(body: InvitationCreate): Promise<InvitationCreated> {
  return apiRequest<InvitationCreated>("/teams/current/invitations", { method: "POST", json: body });
}

export function useCreateInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationsQueryKey }),
  });
}
