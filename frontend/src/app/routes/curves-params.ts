import type { CurvesParams } from "../../features/curves/api/get-curves";

export const AXES = ["iodepth", "numjobs", "bs", "rwmixread", "rate", "rate_iops"] as const;
export const DIRECTIONS = ["read", "write", "trim"] as const;

/** The curves the address asks for (null until it names runs). */
export function curvesParamsOf(params: URLSearchParams, figure: CurvesParams["figure"] = "iops"): CurvesParams | null {
  const runIds = (params.get("run_ids") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => /^\d+$/.test(part))
    .map(Number);
  if (runIds.length === 0) return null;
  const axis = params.get("axis") ?? "iodepth";
  const direction = params.get("direction");
  const boundMs = Number(params.get("p99_ms"));
  return {
    runIds,
    axis: (AXES as readonly string[]).includes(axis) ? axis : "iodepth",
    figure,
    direction: (DIRECTIONS as readonly string[]).includes(direction ?? "") ? (direction as CurvesParams["direction"]) : undefined,
    p99BoundNs: boundMs > 0 ? boundMs * 1e6 : undefined,
  };
}

