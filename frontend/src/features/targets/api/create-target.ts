import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Target, TargetCreate } from "../../../lib/api/types";
import { targetsQueryKey } from "./list-targets";

export function createTarget(body: TargetCreate): Promise<Target> {
  return apiRequest<Target>("/targets", { method: "POST", json: body });
}

export function useCreateTarget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTarget,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: targetsQueryKey }),
  });
}
