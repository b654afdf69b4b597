import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { webhooksQueryKey } from "./list-webhooks";

/** DELETE /webhooks/{id}: the webhook and its delivery log go. */
export function deleteWebhook(id: number): Promise<void> {
  return apiRequest<void>(`/webhooks/${id}`, { method: "DELETE" });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}
