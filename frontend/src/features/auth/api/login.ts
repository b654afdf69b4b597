import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { LoginRequest, Session } from "../../../lib/api/types";
import { startSession } from "../../../lib/session";

/** POST /auth/login: the server sets the HttpOnly session cookie and answers with the CSRF token. */
export function login(credentials: LoginRequest): Promise<Session> {
  return apiRequest<Session>("/auth/login", { method: "POST", json: credentials, auth: false });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: login, onSuccess: (session) => startSession(queryClient, session) });
}
