import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { enrollmentTokensQueryKey } from "./list-enrollment-tokens";

/** DELETE /enrollment-tokens/{id}: no more hosts enroll with it; enrolled hosts keep working. */
export function revokeEnrollmentToken(id: number): Promise<void> {
  return apiRequest<void>(`/enrollment-tokens/${id}`, { method: "DELETE" });
}

export function useRevokeEnrollmentToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeEnrollmentToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: enrollmentTokensQueryKey }),
  });
}
