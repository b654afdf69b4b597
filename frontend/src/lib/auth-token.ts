// The bearer token lives in sessionStorage (per tab, gone when the tab closes).
// Components subscribe to it so that dropping the token (sign-out, any 401)
// re-renders the route guard, which sends the user to /login.

const STORAGE_KEY = "storbench.auth";

interface StoredToken {
  token: string;
  expiresAt: string | null;
}

type Listener = () => void;
const listeners = new Set<Listener>();

function read(): StoredToken | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<StoredToken>;
    if (typeof parsed.token !== "string" || parsed.token === "") return null;
    return { token: parsed.token, expiresAt: parsed.expiresAt ?? null };
  } catch {
    return null;
  }
}

function isExpired(stored: StoredToken, now: number): boolean {
  if (!stored.expiresAt) return false;
  const expires = Date.parse(stored.expiresAt);
  return Number.isFinite(expires) && expires <= now;
}

/** The current token, or null when there is none or it has expired. */
export function getToken(): string | null {
  const stored = read();
  if (!stored || isExpired(stored, Date.now())) return null;
  return stored.token;
}

export function setToken(token: string, expiresAt: string | null = null): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ token, expiresAt }));
  notify();
}

export function clearToken(): void {
  if (sessionStorage.getItem(STORAGE_KEY) === null) return;
  sessionStorage.removeItem(STORAGE_KEY);
  notify();
}

export function subscribeToken(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(): void {
  for (const listener of [...listeners]) listener();
}
