import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { HostCreate, HostCreated } from "../../../lib/api/types";
import { hostsQueryKey } from "./list-hosts";

export function createHost(body: HostCreate): Promise<HostCreated> {
  return apiRequest<HostCreated>("/hosts", { method: "POST", json: body });
}

export function useCreateHost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createHost,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: hostsQueryKey }),
  });
}
