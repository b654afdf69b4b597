import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export type VerificationRequest = Schema<"VerificationRequest">;
export type VerificationPlan = Schema<"VerificationPlan">;

/** Saves the plan that confirms a candidate: its class's published recipes and the demanded shapes. */
export function createVerificationPlan(body: VerificationRequest): Promise<VerificationPlan> {
  return apiRequest<VerificationPlan>("/planner/verification-plans", { method: "POST", json: body });
}

export function useCreateVerificationPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createVerificationPlan,
    // The new plan is listed on the Plans page.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["plans"] }),
  });
}
