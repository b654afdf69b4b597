import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { TeamCreate, TeamMembership } from "../../../lib/api/types";
import { teamsQueryKey } from "./list-teams";

/** POST /teams: a new team with the caller as its owner (the session does not switch to it). */
export function createTeam(body: TeamCreate): Promise<TeamMembership> {
  return apiRequest<TeamMembership>("/teams", { method: "POST", json: body });
}

export function useCreateTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTeam,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamsQueryKey }),
  });
}
