import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export type Attention = Schema<"AttentionOut">;
export type AttentionItem = Schema<"AttentionItem">;

export const attentionQueryKey = ["attention"] as const;

/** GET /attention: regressions nobody acknowledged, recent failures, hosts not online, series below spec. */
export function attentionQueryOptions() {
  return queryOptions({
    queryKey: attentionQueryKey,
    queryFn: ({ signal }) => apiRequest<Attention>("/attention", { signal }),
    // A dashboard left open follows what happens (a host going offline, a run failing).
    refetchInterval: 60_000,
  });
}

export function useAttention() {
  return useQuery(attentionQueryOptions());
}
