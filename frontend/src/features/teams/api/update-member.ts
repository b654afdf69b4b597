import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Member, MemberUpdate } from "../../../lib/api/types";
import { membersQueryKey } from "./list-members";

/** PATCH /teams/current/members/{user_id}: 409 when the team would be left without an owner. */
export function updateMember({ userId, changes }: { userId: number; changes: MemberUpdate }): Promise<Member> {
  return apiRequest<Member>(`/teams/current/members/${userId}`, { method: "PATCH", json: changes });
}

export function useUpdateMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: membersQueryKey }),
  });
}
