import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { ApiTokenCreate, ApiTokenCreated } from "../../../lib/api/types";
import { tokensQueryKey } from "./list-tokens";

/** POST /tokens: the secret is in this answer only. */
export function createToken(body: ApiTokenCreate): Promise<ApiTokenCreated> {
  return apiRequest<ApiTokenCreated>("/tokens", { method: "POST", json: body });
}

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQueryKey }),
  });
}
