import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { tokensQueryKey } from "./list-tokens";

/** DELETE /tokens/{id}: the token stops working at once. */
export function revokeToken(id: number): Promise<void> {
  return apiRequest<void>(`/tokens/${id}`, { method: "DELETE" });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQueryKey }),
  });
}
