import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { InvitationAccept, Me, Session, TokenResponse } from "../../../lib/api/types";
import { setCsrfToken, startSession } from "../../../lib/session";
import { login } from "./login";
import { switchTeam } from "./switch-team";

/**
 * POST /invitations/accept, then a cookie session for the browser in the team joined.
 *
 * The accept answer is a bearer token; the web UI never keeps bearer tokens, so it only asks which
 * team was joined and revokes it, then signs in with the same email and password. Someone who
 * already had an account signs in to their first team: switch to the one just joined.
 */
export async function acceptInvitation(body: InvitationAccept): Promise<Session> {
  const { access_token: bearer } = await apiRequest<TokenResponse>("/invitations/accept", {
    method: "POST",
    json: body,
    auth: false,
  });
  const joined = await apiRequest<Me>("/auth/me", { bearer });
  await apiRequest<void>("/auth/logout", { method: "POST", bearer });
  const session = await login({ email: body.email, password: body.password });
  if (session.team.id === joined.team.id) return session;
  setCsrfToken(session.csrf_token);
  const me = await switchTeam(joined.team.id);
  return { ...me, csrf_token: session.csrf_token };
}

export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: acceptInvitation, onSuccess: (session) => startSession(queryClient, session) });
}
