// How each compared figure is named and written (units as the API states them).

import { formatBandwidth, formatIops, formatNs, formatPercent } from "../../../lib/format";

export const FIGURE_LABELS: Record<string, string> = {
  iops: "IOPS",
  bw_bytes: "Bandwidth",
  lat_mean_ns: "Latency mean",
  clat_p50_ns: "p50 latency",
  clat_p90_ns: "p90 latency",
  clat_p95_ns: "p95 latency",
  clat_p99_ns: "p99 latency",
  clat_p99_9_ns: "p99.9 latency",
  clat_p99_99_ns: "p99.99 latency",
  cpu_usr_pct: "CPU usr",
  cpu_sys_pct: "CPU sys",
};

export function figureLabel(figure: string): string {
  return FIGURE_LABELS[figure] ?? figure;
}

/** A figure's value in its unit: IOPS with k/M, bandwidth per second, latency by magnitude, CPU in %. */
export function formatFigure(unit: string, value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  switch (unit) {
    case "IOPS":
      return formatIops(value);
    case "B/s":
      return formatBandwidth(value);
    case "ns":
      return formatNs(value);
    case "%":
      return formatPercent(value);
    default:
      return String(value);
  }
}

/** "+12.3 %", "−4.0 %", or "—". */
export function formatDeltaPct(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  const sign = value > 0 ? "+" : value < 0 ? "−" : "±";
  return `${sign}${Math.abs(value).toFixed(1)} %`;
}

/** Whether a change is for the better, given which way the figure should go. */
export function isBetter(deltaPct: number | null | undefined, higherIsBetter: boolean): boolean | null {
  if (deltaPct === null || deltaPct === undefined || deltaPct === 0) return null;
  return higherIsBetter ? deltaPct > 0 : deltaPct < 0;
}
