import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Page, Preset } from "../../../lib/api-types";

export function listPresetsQueryOptions() {
  return queryOptions({
    queryKey: ["presets", "list"],
    queryFn: async ({ signal }): Promise<Page<Preset>> => {
      const data = await apiRequest<Page<Preset> | Preset[]>("/presets", { signal });
      // Tolerate a bare array: presets are a fixed catalogue, not a paged list.
      return Array.isArray(data) ? { items: data, total: data.length } : data;
    },
    // Presets ship with the server: they change only on upgrade.
    staleTime: 30 * 60_000,
  });
}

export function usePresets() {
  return useQuery(listPresetsQueryOptions());
}
