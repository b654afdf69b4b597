import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { TokenResponse } from "../../../lib/api-types";
import { setToken } from "../../../lib/auth-token";

export interface Credentials {
  email: string;
  password: string;
}

/** POST /auth/token (OAuth2 password form); stores the token on success. */
export async function login({ email, password }: Credentials): Promise<TokenResponse> {
  const token = await apiRequest<TokenResponse>("/auth/token", {
    method: "POST",
    form: { username: email, password },
    auth: false,
  });
  setToken(token.access_token, token.expires_at);
  return token;
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
