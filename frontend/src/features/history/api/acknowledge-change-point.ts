import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { RequestOf } from "../../../lib/api/types";
import { historyQueryKey } from "./get-trend";
import type { ChangePoint } from "./list-regressions";

export interface AcknowledgeInput {
  id: number;
  body: RequestOf<"/api/v1/regressions/{change_point_id}/acknowledge", "post">;
}

/** POST /regressions/{id}/acknowledge: mark a change as looked at, with a comment. */
export function acknowledgeChangePoint({ id, body }: AcknowledgeInput): Promise<ChangePoint> {
  return apiRequest<ChangePoint>(`/regressions/${id}/acknowledge`, { method: "POST", json: body });
}

export function useAcknowledgeChangePoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acknowledgeChangePoint,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: historyQueryKey }),
  });
}
