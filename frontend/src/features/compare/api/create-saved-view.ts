import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export type SavedViewCreate = Schema<"SavedViewIn">;

/** POST /compare/views: keep this comparison under a name for the team. */
export function createSavedView(body: SavedViewCreate) {
  return apiRequest<Schema<"SavedViewOut">>("/compare/views", { method: "POST", json: body });
}

export function useCreateSavedView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSavedView,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["compare", "views"] }),
  });
}
