import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";
import { historyQueryKey } from "./get-trend";

export type UnfiledGroup = Schema<"UnfiledGroupOut">;

/** GET /results/unfiled: imports without a target, by host name and job. */
export function unfiledQueryOptions() {
  return queryOptions({
    queryKey: [...historyQueryKey, "unfiled"],
    queryFn: ({ signal }) => apiRequest<Schema<"UnfiledGroupList">>("/results/unfiled", { signal }),
  });
}

export function useUnfiled() {
  return useQuery(unfiledQueryOptions());
}
