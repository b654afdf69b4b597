import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest, isApiError } from "../../../lib/api-client";
import type { Role, Session } from "../../../lib/api/types";
import { SESSION_QUERY_KEY, setCsrfToken } from "../../../lib/session";

/** GET /auth/session: restores a session (and its CSRF token) on page load; null when signed out. */
export async function getSession(signal?: AbortSignal): Promise<Session | null> {
  try {
    const session = await apiRequest<Session>("/auth/session", { signal });
    setCsrfToken(session.csrf_token);
    return session;
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
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
