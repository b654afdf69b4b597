import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export const retentionQueryKey = ["team", "retention"] as const;

export function retentionQueryOptions() {
  return queryOptions({
    queryKey: retentionQueryKey,
    queryFn: ({ signal }) => apiRequest<Schema<"RetentionOut">>("/teams/current/retention", { signal }),
  });
}

/** GET /teams/current/retention: days raw outputs and per-second series are kept (null: forever). */
export function useRetention() {
  return useQuery(retentionQueryOptions());
}

/** PUT /teams/current/retention (owners): applied by the server's next retention pass. */
export function useSetRetention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (wanted: Schema<"RetentionIn">) =>
      apiRequest<Schema<"RetentionOut">>("/teams/current/retention", { method: "PUT", json: wanted }),
    onSuccess: (saved) => queryClient.setQueryData(retentionQueryKey, saved),
  });
}
