import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Role, Session, SessionStatus } from "../../../lib/api/types";
import { SESSION_QUERY_KEY, setCsrfToken } from "../../../lib/session";

/**
 * GET /auth/status: restores a session (and its CSRF token) on page load; null when signed out.
 * The server answers 200 either way, so a first visit logs no failed request.
 */
export async function getSession(signal?: AbortSignal): Promise<Session | null> {
  const status = await apiRequest<SessionStatus>("/auth/status", { signal });
  if (!status.signed_in || !status.session) return null;
  setCsrfToken(status.session.csrf_token);
  return status.session;
}

export function sessionQueryOptions() {
  return queryOptions({
    queryKey: SESSION_QUERY_KEY,
    queryFn: ({ signal }) => getSession(signal),
    // Re-read now and then (window focus) so a role changed by an owner shows up.
    staleTime: 5 * 60_000,
  });
}

export function useSession() {
  return useQuery(sessionQueryOptions());
}

/** The signed-in user's role in the current team (undefined while unknown: show the least). */
export function useRole(): Role | undefined {
  return useSession().data?.role;
}
