import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { HostCredential } from "../../../lib/api/types";

/** POST /hosts/{id}/rotate-credential (owners): a new worker token, shown once; the old one stops. */
export function rotateHostCredential(id: number): Promise<HostCredential> {
  return apiRequest<HostCredential>(`/hosts/${id}/rotate-credential`, { method: "POST" });
}

export function useRotateHostCredential() {
  return useMutation({ mutationFn: rotateHostCredential });
}
