// The browser session is an HttpOnly cookie this page never sees. What the page keeps, in memory
// only, is the CSRF token the server binds to that cookie (echoed on every change), and the news
// that the session has ended (any 401), which the app turns into the sign-in page.

import type { QueryClient, Query } from "@tanstack/react-query";
import type { Session } from "./api/types";

/** Query key of GET /auth/status: who is signed in, in which team (null: nobody). */
export const SESSION_QUERY_KEY = ["session"] as const;

let csrfToken: string | null = null;
const endedListeners = new Set<() => void>();

export function getCsrfToken(): string | null {
  return csrfToken;
}

export function setCsrfToken(token: string | null): void {
  csrfToken = token || null;
}

/** The server no longer knows this session (401, sign-out): forget it and tell the app. */
export function endSession(): void {
  csrfToken = null;
  for (const listener of [...endedListeners]) listener();
}

export function onSessionEnded(listener: () => void): () => void {
  endedListeners.add(listener);
  return () => endedListeners.delete(listener);
}

function isSessionQuery(query: Query): boolean {
  return query.queryKey[0] === SESSION_QUERY_KEY[0];
}

/**
 * A new session (sign-in) or a new team (switch): every other query starts over, so nothing of
 * the previous user or team stays on screen; what is on screen is fetched again.
 */
export function startSession(client: QueryClient, session: Session): Promise<void> {
  setCsrfToken(session.csrf_token);
  client.setQueryData<Session | null>(SESSION_QUERY_KEY, session);
  return client.resetQueries({ predicate: (query) => !isSessionQuery(query) });
}

/** Signed out: drop everything fetched for the session (nothing is fetched again). */
export function forgetSession(client: QueryClient): void {
  client.setQueryData<Session | null>(SESSION_QUERY_KEY, null);
  client.removeQueries({ predicate: (query) => !isSessionQuery(query) });
}

/**
 * Whether the browser holds a session, before the server has said so: its CSRF cookie (readable,
 * unlike the HttpOnly session cookie) is set. A page opened by its address asks for its data at
 * once on this guess, beside the session check, instead of after it.
 */
export function hasSessionCookie(cookies: string = document.cookie): boolean {
  return cookies.split(";").some((cookie) => cookie.trim().startsWith("storbench_csrf="));
}
