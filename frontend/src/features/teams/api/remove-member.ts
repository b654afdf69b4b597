import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { membersQueryKey } from "./list-members";

/** DELETE /teams/current/members/{user_id}: the member loses access at once. */
export function removeMember(userId: number): Promise<void> {
  return apiRequest<void>(`/teams/current/members/${userId}`, { method: "DELETE" });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: membersQueryKey }),
  });
}
