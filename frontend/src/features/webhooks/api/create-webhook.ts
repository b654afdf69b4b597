import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";
import { webhooksQueryKey } from "./list-webhooks";

export type WebhookCreate = Schema<"WebhookCreate">;
export type WebhookCreated = Schema<"WebhookCreated">;

/** POST /webhooks: the signing secret is in this answer only. */
export function createWebhook(body: WebhookCreate): Promise<WebhookCreated> {
  return apiRequest<WebhookCreated>("/webhooks", { method: "POST", json: body });
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}
