import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export function listPresetsQueryOptions() {
  return queryOptions({
    queryKey: ["presets", "list"],
    queryFn: ({ signal }) => apiRequest<Schema<"PresetList">>("/presets", { signal }),
    // Presets ship with the server: they change only on upgrade.
    staleTime: 30 * 60_000,
  });
}

export function usePresets() {
  return useQuery(listPresetsQueryOptions());
}
