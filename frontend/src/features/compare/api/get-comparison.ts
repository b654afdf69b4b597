import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest, apiUrl } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export type Comparison = Schema<"ComparisonOut">;
export type ComparisonSide = Schema<"SideOut">;
export type ComparisonRow = Schema<"FigureRow">;
export type ComparisonCell = Schema<"Cell">;
export type Verdict = Schema<"VerdictOut">;
export type FingerprintDifference = Schema<"Difference">;

export interface ComparisonParams {
  ids: number[];
  baseline?: number;
  /** "run": each run a side of its own; by default results pool by what was measured. */
  pool?: Schema<"Pooling">;
}

function query({ ids, baseline, pool }: ComparisonParams) {
  return { ids: ids.join(","), baseline, pool: pool === "run" ? pool : undefined };
}

/** GET /compare: the results side by side, what differs in how they were measured first. */
export function comparisonQueryOptions(params: ComparisonParams) {
  return queryOptions({
    queryKey: ["compare", "sides", query(params)],
    queryFn: ({ signal }) => apiRequest<Comparison>("/compare", { query: query(params), signal }),
    enabled: params.ids.length > 0,
  });
}

export function useComparison(params: ComparisonParams) {
  return useQuery(comparisonQueryOptions(params));
}

/** GET /compare/export: the comparison as a downloadable file (the session cookie authenticates it). */
export function comparisonExportUrl(params: ComparisonParams, format: "csv" | "json"): string {
  return apiUrl("/compare/export", { ...query(params), format });
}
