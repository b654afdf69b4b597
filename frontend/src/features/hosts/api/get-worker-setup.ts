import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export type WorkerSetup = Schema<"WorkerSetup">;

/** GET /worker/setup: whether a host on another machine can join, and the commands to run on it. */
export function workerSetupQueryOptions() {
  return queryOptions({
    queryKey: ["hosts", "setup"],
    queryFn: ({ signal }) => apiRequest<WorkerSetup>("/worker/setup", { signal }),
    staleTime: 5 * 60_000,
  });
}

export function useWorkerSetup() {
  return useQuery(workerSetupQueryOptions());
}
