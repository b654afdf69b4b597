import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export type Curves = Schema<"CurvesOut">;
export type Curve = Schema<"Curve">;

export interface CurvesParams {
  runIds: number[];
  axis: string;
  figure: "iops" | "bw_bytes";
  direction?: "read" | "write" | "trim";
  p99BoundNs?: number;
}

/** GET /curves: each sweep's figure along its axis, with the knee. */
export function curvesQueryOptions({ runIds, axis, figure, direction, p99BoundNs }: CurvesParams) {
  const query = {
    run_ids: runIds.join(","),
    axis,
    figure,
    direction,
    p99_bound_ns: p99BoundNs,
  };
  return queryOptions({
    queryKey: ["curves", query],
    queryFn: ({ signal }) => apiRequest<Curves>("/curves", { query, signal }),
    retry: false,
  });
}

export function useCurves(params: CurvesParams | null) {
  return useQuery({ ...curvesQueryOptions(params ?? { runIds: [], axis: "iodepth", figure: "iops" }), enabled: params !== null });
}
