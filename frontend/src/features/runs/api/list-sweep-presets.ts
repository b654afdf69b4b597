import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export type SweepPreset = Schema<"SweepPresetOut">;

/** GET /presets/sweeps: the common sweeps (queue depth, jobs, block size). */
export function listSweepPresetsQueryOptions() {
  return queryOptions({
    queryKey: ["presets", "sweeps"],
    queryFn: ({ signal }) => apiRequest<Schema<"SweepPresetList">>("/presets/sweeps", { signal }),
    staleTime: Infinity,
  });
}

export function useSweepPresets() {
  return useQuery(listSweepPresetsQueryOptions());
}
