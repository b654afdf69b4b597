import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export type SavedView = Schema<"SavedViewOut">;

/** GET /compare/views/{id}: a comparison a teammate saved, opened by its id. */
export function savedViewQueryOptions(id: number | null) {
  return queryOptions({
    queryKey: ["compare", "views", id],
    queryFn: ({ signal }) => apiRequest<SavedView>(`/compare/views/${id}`, { signal }),
    enabled: id !== null,
  });
}

export function useSavedView(id: number | null) {
  return useQuery(savedViewQueryOptions(id));
}
