import { queryOptions, useQuery } from "@tanstack/react-query";
import { fetchAllPages } from "../../../lib/all-pages";
import type { Schema } from "../../../lib/api/types";

export type Webhook = Schema<"WebhookOut">;

export const webhooksQueryKey = ["webhooks"] as const;

export function listWebhooksQueryOptions() {
  return queryOptions({
    queryKey: [...webhooksQueryKey, "list"],
    queryFn: ({ signal }) => fetchAllPages<Schema<"WebhookList">>("/webhooks", { signal }),
  });
}

/** GET /webhooks (owners): URLs, events, and how the latest delivery went. */
export function useWebhooks(enabled = true) {
  return useQuery({ ...listWebhooksQueryOptions(), enabled });
}
