import { useSyncExternalStore } from "react";
import { getToken, subscribeToken } from "./auth-token";

/** The current bearer token; re-renders when it is set or dropped. */
export function useAuthToken(): string | null {
  return useSyncExternalStore(subscribeToken, getToken, () => null);
}
