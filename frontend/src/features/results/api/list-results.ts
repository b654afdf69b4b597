import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { ResultListParams, Schema } from "../../../lib/api/types";

export const resultsQueryKey = ["results"] as const;

/** GET /results: the team's measured and imported results, newest first, one keyset page at a time. */
export function listResultsQueryOptions({
  target_id,
  storage_class,
  imported,
  job_name,
  label,
  host_name,
  run_id,
  measured_after,
  measured_before,
  limit = 50,
  cursor,
}: ResultListParams = {}) {
  const query = { target_id, storage_class, imported, job_name, label, host_name, run_id, measured_after, measured_before, limit, cursor };
  return queryOptions({
    queryKey: [...resultsQueryKey, "list", query],
    queryFn: ({ signal }) => apiRequest<Schema<"ResultList">>("/results", { query, signal }),
    // Paging and filtering keep the previous page on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });
}

export function useResults(params?: ResultListParams) {
  return useQuery(listResultsQueryOptions(params));
}
