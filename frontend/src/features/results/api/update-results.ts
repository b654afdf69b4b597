import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";
import { resultsQueryKey } from "./list-results";

export interface RelabelInput {
  ids: number[];
  /** null or blank clears the label. */
  label: string | null;
}

/** PATCH /results/{id} for one result, PATCH /results for several: one label for all of them. */
export async function relabelResults({ ids, label }: RelabelInput): Promise<Schema<"ResultOut">[]> {
  if (ids.length === 1) {
    const result = await apiRequest<Schema<"ResultOut">>(`/results/${ids[0]}`, { method: "PATCH", json: { label } });
    return [result];
  }
  const relabelled = await apiRequest<Schema<"RelabelledOut">>("/results", { method: "PATCH", json: { ids, label } });
  return relabelled.items;
}

export function useRelabelResults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: relabelResults,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resultsQueryKey }),
  });
}
