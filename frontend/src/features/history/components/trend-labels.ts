import type { ValueUnit } from "../../../lib/format";
import type { Figure, IoDirection } from "../api/get-trend";

/** Figures a trend can show, as people name them. */
export const FIGURE_LABELS: Record<Figure, string> = {
  iops: "IOPS",
  bw_bytes: "Bandwidth",
  lat_mean_ns: "Mean latency",
  lat_min_ns: "Minimum latency",
  lat_max_ns: "Maximum latency",
  lat_stddev_ns: "Latency std. deviation",
  clat_p50_ns: "p50 completion latency",
  clat_p90_ns: "p90 completion latency",
  clat_p95_ns: "p95 completion latency",
  clat_p99_ns: "p99 completion latency",
  clat_p99_9_ns: "p99.9 completion latency",
  clat_p99_99_ns: "p99.99 completion latency",
};

export const FIGURES = Object.keys(FIGURE_LABELS) as Figure[];
export const DIRECTIONS: IoDirection[] = ["read", "write", "trim"];

export function isFigure(value: string | null): value is Figure {
  return value !== null && value in FIGURE_LABELS;
}

export function isDirection(value: string | null): value is IoDirection {
  return value === "read" || value === "write" || value === "trim";
}

/** The chart unit of a figure. */
export function unitOf(figure: string): ValueUnit {
  if (figure === "iops") return "iops";
  return figure === "bw_bytes" ? "bytes_per_s" : "ns";
}

/** A change as a percentage: "−30.0 %". */
export function formatRatio(ratio: number): string {
  const percent = (ratio - 1) * 100;
  const sign = percent > 0 ? "+" : percent < 0 ? "−" : "";
  return `${sign}${Math.abs(percent).toFixed(1)} %`;
}
