import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";
import { webhooksQueryKey } from "./list-webhooks";

export type Delivery = Schema<"DeliveryOut">;

export function listDeliveriesQueryOptions(webhookId: number) {
  return queryOptions({
    queryKey: [...webhooksQueryKey, webhookId, "deliveries"],
    queryFn: ({ signal }) =>
      apiRequest<Schema<"DeliveryList">>(`/webhooks/${webhookId}/deliveries`, { query: { limit: 50 }, signal }),
    // Deliveries are sent in the background within seconds: follow them while pending.
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.status === "pending") ? 5000 : false),
  });
}

/** GET /webhooks/{id}/deliveries: status, attempts, last HTTP status and error, newest first. */
export function useDeliveries(webhookId: number) {
  return useQuery(listDeliveriesQueryOptions(webhookId));
}
