import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Delivery } from "./list-deliveries";
import { webhooksQueryKey } from "./list-webhooks";

/** POST /webhooks/{id}/deliveries/{delivery}/retry: a failed delivery starts over. */
export function retryDelivery({ webhookId, deliveryId }: { webhookId: number; deliveryId: number }): Promise<Delivery> {
  return apiRequest<Delivery>(`/webhooks/${webhookId}/deliveries/${deliveryId}/retry`, { method: "POST" });
}

export function useRetryDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryDelivery,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}
