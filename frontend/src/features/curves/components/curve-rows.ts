// Curves as chart rows: one row per axis value, one column per curve (its key), so several
// sweeps overlay on one chart. Pure, so the overlay and the knee marks are tested without a chart.

import type { Curve } from "../api/get-curves";

export type CurveValue = "median" | "lat_mean_ns" | "clat_p99_ns";

export interface CurveRow {
  value: number;
  [key: string]: number | null;
}

/** The axis values of all curves, in order, each with every curve's figure there (null: not measured). */
export function curveRows(curves: Curve[], pick: CurveValue): CurveRow[] {
  const values = [...new Set(curves.flatMap((curve) => curve.points.map((point) => point.value)))].sort((a, b) => a - b);
  return values.map((value) => {
    const row: CurveRow = { value };
    for (const curve of curves) {
      const point = curve.points.find((candidate) => candidate.value === value);
      row[curve.key] = point ? (point[pick] ?? null) : null;
    }
    return row;
  });
}

/** How an axis value reads: block sizes in KiB/MiB, others as numbers. */
export function axisLabel(axis: string, value: number): string {
  if (axis !== "bs") return String(value);
  if (value >= 1 << 20 && value % (1 << 20) === 0) return `${value / (1 << 20)} MiB`;
  if (value >= 1024 && value % 1024 === 0) return `${value / 1024} KiB`;
  return `${value} B`;
}

/** What the knee of a curve says, in words. */
export function kneeText(axis: string, curve: Curve): string {
  if (!curve.knee) return `No knee: ${curve.knee_reason}`;
  return `Knee at ${axis} ${axisLabel(axis, curve.knee.value)}: ${curve.knee_reason}`;
}
