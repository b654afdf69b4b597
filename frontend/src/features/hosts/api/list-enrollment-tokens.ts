import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export const enrollmentTokensQueryKey = ["enrollment-tokens"] as const;

export function listEnrollmentTokensQueryOptions() {
  return queryOptions({
    queryKey: [...enrollmentTokensQueryKey, "list"],
    queryFn: ({ signal }) => apiRequest<Schema<"EnrollmentTokenList">>("/enrollment-tokens", { signal }),
  });
}

export function useEnrollmentTokens() {
  return useQuery(listEnrollmentTokensQueryOptions());
}
