import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export type PlannerRequest = Schema<"PlannerRequest">;
export type PlannerAnswer = Schema<"PlannerAnswer">;
export type Candidate = Schema<"Candidate">;
export type Demand = Schema<"DemandIn">;

/** Every storage class sized for the workload, feasible first by cost then headroom. */
export function planCapacity(body: PlannerRequest): Promise<PlannerAnswer> {
  return apiRequest<PlannerAnswer>("/planner", { method: "POST", json: body });
}

export function usePlanCapacity() {
  return useMutation({ mutationFn: planCapacity });
}
