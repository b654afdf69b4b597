import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export const tokensQueryKey = ["tokens"] as const;

export function listTokensQueryOptions() {
  return queryOptions({
    queryKey: [...tokensQueryKey, "list"],
    queryFn: ({ signal }) => apiRequest<Schema<"ApiTokenList">>("/tokens", { signal }),
  });
}

export function useTokens() {
  return useQuery(listTokensQueryOptions());
}
