import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { PasswordChange } from "../../../lib/api/types";

/** POST /auth/password (204); the user's other browser sessions end, API tokens stay. */
export function changePassword(body: PasswordChange): Promise<void> {
  return apiRequest<void>("/auth/password", { method: "POST", json: body });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
