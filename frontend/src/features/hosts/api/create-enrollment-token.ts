import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { EnrollmentTokenCreate, EnrollmentTokenCreated } from "../../../lib/api/types";
import { enrollmentTokensQueryKey } from "./list-enrollment-tokens";

/** POST /enrollment-tokens: the secret is in this answer only. */
export function createEnrollmentToken(body: EnrollmentTokenCreate): Promise<EnrollmentTokenCreated> {
  return apiRequest<EnrollmentTokenCreated>("/enrollment-tokens", { method: "POST", json: body });
}

export function useCreateEnrollmentToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEnrollmentToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: enrollmentTokensQueryKey }),
  });
}
