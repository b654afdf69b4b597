// A comparison opened by its address (a permalink, a bookmark, a reload) needs the comparison
// and its grouped view whoever is signed in: they are asked for as the script loads, beside the
// session check, instead of after it. The page takes each answer once, when it asks for the same
// thing; any later ask goes to the server again.

import { apiRequest, apiUrl } from "../../../lib/api-client";

type Query = Record<string, string | number | boolean | null | undefined>;

const started = new Map<string, Promise<unknown>>();

/** The same request whatever the order of its query parameters. */
function requestKey(path: string, query: Query): string {
  const sorted = Object.entries(query).sort(([a], [b]) => a.localeCompare(b));
  return apiUrl(path, Object.fromEntries(sorted));
}

/** Whether the browser holds a session: its CSRF cookie (readable, unlike the session's) is set. */
export function hasSessionCookie(cookies: string = document.cookie): boolean {
  return cookies.split(";").some((cookie) => cookie.trim().startsWith("storbench_csrf="));
}

/** Starts GET path?query now, for the page to take later. */
export function startEarly(path: string, query: Query): void {
  const key = requestKey(path, query);
  if (started.has(key)) return;
  const answer = apiRequest<unknown>(path, { query });
  // Nobody may take it (the visitor went elsewhere): a failure then is not an unhandled one.
  answer.catch(() => undefined);
  started.set(key, answer);
}

/** The answer to GET path?query started early, once; undefined if none was. */
export function takeEarly<T>(path: string, query: Query): Promise<T> | undefined {
  const key = requestKey(path, query);
  const answer = started.get(key);
  started.delete(key);
  return answer as Promise<T> | undefined;
}

/** Forgets every request started early (tests). */
export function forgetEarly(): void {
  started.clear();
}
