import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { endSession } from "../../../lib/session";

/** POST /auth/logout: the server revokes the session and clears its cookies. */
export function logout(): Promise<void> {
  return apiRequest<void>("/auth/logout", { method: "POST" });
}

export function useLogout() {
  return useMutation({ mutationFn: logout, onSuccess: () => endSession() });
}
