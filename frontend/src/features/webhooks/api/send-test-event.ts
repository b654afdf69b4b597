import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Delivery } from "./list-deliveries";
import { webhooksQueryKey } from "./list-webhooks";

/** POST /webhooks/{id}/test: a signed "ping" delivery, sent within seconds. */
export function sendTestEvent(id: number): Promise<Delivery> {
  return apiRequest<Delivery>(`/webhooks/${id}/test`, { method: "POST" });
}

export function useSendTestEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendTestEvent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}
