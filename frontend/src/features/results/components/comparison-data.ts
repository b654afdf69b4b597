// Turns a list of results into grouped bars: one category per workload (job and direction),
// one bar per label or storage class, each the mean over the matching results.

import { paletteColor, type ChartRow, type SeriesConfig } from "../../../components/ui/chart-config";
import type { Direction, Result } from "../../../lib/api/types";
import type { ValueUnit } from "../../../lib/format";
import { activeDirections, percentile, percentileSource } from "../../../lib/latency";

export type ComparisonMetric = "iops" | "bandwidth" | "p99";
export type ComparisonGroupBy = "label" | "storage_class";

export const METRICS: Record<ComparisonMetric, { label: string; unit: ValueUnit; read: (d: Direction) => number | undefined }> = {
  iops: { label: "IOPS", unit: "iops", read: (d) => d.iops },
  bandwidth: { label: "Bandwidth", unit: "bytes_per_s", read: (d) => d.bw_bytes },
  p99: { label: "p99 latency", unit: "ns", read: (d) => percentile(percentileSource(d), "99") },
};

export const GROUP_BY_LABELS: Record<ComparisonGroupBy, string> = {
  label: "Label",
  storage_class: "Storage class",
};

/** More bars than this per workload stop being readable. */
export const MAX_GROUPS = 8;

export function groupName(result: Result, groupBy: ComparisonGroupBy): string {
  if (groupBy === "storage_class") return result.storage_class ?? "no storage class";
  return result.label ?? result.storage_class ?? "unlabelled";
}

export interface Comparison {
  rows: ChartRow[];
  series: Record<string, SeriesConfig>;
  /** Groups left out beyond MAX_GROUPS (the ones with fewest results). */
  hiddenGroups: string[];
}

export function buildComparison(results: Result[], metric: ComparisonMetric, groupBy: ComparisonGroupBy): Comparison {
  const read = METRICS[metric].read;
  const counts = new Map<string, number>();
  for (const result of results) {
    const name = groupName(result, groupBy);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const ordered = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name]) => name);
  const shown = ordered.slice(0, MAX_GROUPS);
  // Series keys are plain identifiers: Recharts reads dotted data keys as paths.
  const keyOf = new Map(shown.map((name, index) => [name, `g${index}`]));

  const sums = new Map<string, Map<string, { total: number; n: number }>>();
  for (const result of results) {
    const key = keyOf.get(groupName(result, groupBy));
    if (!key) continue;
    for (const [direction, figures] of activeDirections(result)) {
      const value = read(figures);
      if (value === undefined || !Number.isFinite(value)) continue;
      const workload = `${result.job_name} ${direction}`;
      const byGroup = sums.get(workload) ?? new Map<string, { total: number; n: number }>();
      const sum = byGroup.get(key) ?? { total: 0, n: 0 };
      sum.total += value;
      sum.n += 1;
      byGroup.set(key, sum);
      sums.set(workload, byGroup);
    }
  }

  const rows: ChartRow[] = [...sums.entries()].map(([workload, byGroup]) => {
    const row: ChartRow = { workload };
    for (const [key, sum] of byGroup) row[key] = sum.total / sum.n;
    return row;
  });
  const series: Record<string, SeriesConfig> = {};
  shown.forEach((name, index) => {
    series[`g${index}`] = { label: name, color: paletteColor(index) };
  });
  return { rows, series, hiddenGroups: ordered.slice(MAX_GROUPS) };
}
