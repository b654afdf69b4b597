import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";
import { schedulesQueryKey } from "./list-schedules";

export function nextSlotsQueryOptions(cron: string, timezone: string) {
  return queryOptions({
    queryKey: [...schedulesQueryKey, "next-slots", { cron, timezone }],
    queryFn: ({ signal }) =>
      apiRequest<Schema<"SlotPreview">>("/schedules/next-slots", { query: { cron, timezone, count: 3 }, signal }),
    retry: false,
    placeholderData: keepPreviousData,
  });
}

/** GET /schedules/next-slots: when an expression would fire (a 422 names the wrong field). */
export function useNextSlots(cron: string, timezone: string) {
  return useQuery({ ...nextSlotsQueryOptions(cron, timezone), enabled: cron.trim() !== "" && timezone.trim() !== "" });
}
