import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { WebhookCreated } from "./create-webhook";
import { webhooksQueryKey } from "./list-webhooks";

/** POST /webhooks/{id}/rotate-secret: the new signing secret is in this answer only. */
export function rotateWebhookSecret(id: number): Promise<WebhookCreated> {
  return apiRequest<WebhookCreated>(`/webhooks/${id}/rotate-secret`, { method: "POST" });
}

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateWebhookSecret,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}
