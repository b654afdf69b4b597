import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";
import { type Webhook, webhooksQueryKey } from "./list-webhooks";

/** PATCH /webhooks/{id}: an inactive webhook receives no new events. */
export function updateWebhook({ id, body }: { id: number; body: Schema<"WebhookUpdate"> }): Promise<Webhook> {
  return apiRequest<Webhook>(`/webhooks/${id}`, { method: "PATCH", json: body });
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}
