import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { AuditListParams, Schema } from "../../../lib/api/types";

export const auditQueryKey = ["audit"] as const;

export function listAuditEventsQueryOptions({ action, limit = 50, offset = 0 }: AuditListParams = {}) {
  return queryOptions({
    queryKey: [...auditQueryKey, "list", { action, limit, offset }],
    queryFn: ({ signal }) => apiRequest<Schema<"AuditList">>("/audit", { query: { action, limit, offset }, signal }),
    // Paging keeps the current page on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });
}

export function useAuditEvents(params?: AuditListParams) {
  return useQuery(listAuditEventsQueryOptions(params));
}
