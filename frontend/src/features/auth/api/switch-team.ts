import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Me, Session } from "../../../lib/api/types";
import { getCsrfToken, startSession } from "../../../lib/session";

/** POST /auth/switch-team: the session acts in another of the user's teams from now on. */
export function switchTeam(teamId: number): Promise<Me> {
  return apiRequest<Me>("/auth/switch-team", { method: "POST", json: { team_id: teamId } });
}

/** Switches, then refetches everything: no data of the previous team stays on screen. */
export function useSwitchTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: switchTeam,
    // The cookie stays the same, and so does its CSRF token.
    onSuccess: (me) => startSession(queryClient, { ...me, csrf_token: getCsrfToken() ?? "" } satisfies Session),
  });
}
