import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { RunCreate, Schema } from "../../../lib/api/types";
import { runsQueryKey } from "./list-runs";

export type RunCheck = Schema<"RunCheckOut">;

/** POST /runs/check: what the run needs of its hosts and why it would be refused; starts nothing. */
export function checkRunQueryOptions(body: RunCreate) {
  return queryOptions({
    queryKey: [...runsQueryKey, "check", body],
    queryFn: ({ signal }) => apiRequest<RunCheck>("/runs/check", { method: "POST", json: body, signal }),
    staleTime: 10_000,
    retry: false,
  });
}

export function useRunCheck(body: RunCreate | null) {
  return useQuery({
    ...checkRunQueryOptions(body ?? { target_id: 0 }),
    enabled: body !== null,
    placeholderData: keepPreviousData,
  });
}
