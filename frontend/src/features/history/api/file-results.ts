import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export type FileResultsInput = Schema<"FileResultsIn">;

/** POST /results/file: imports filed under a target (judged, counted and watched there). */
export function fileResults(body: FileResultsInput): Promise<Schema<"FiledOut">> {
  return apiRequest<Schema<"FiledOut">>("/results/file", { method: "POST", json: body });
}

export function useFileResults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fileResults,
    // The imports leave the unfiled list and join a target's series, the results and the regressions.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
