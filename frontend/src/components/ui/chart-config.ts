import type { ValueUnit } from "../../lib/format";

/** One plotted series: the data key it reads, its legend label and colour. */
export interface SeriesConfig {
  label: string;
  color: string;
  /** Bar charts: the row keys of the low and high ends of an error bar (e.g. p25 and p75). */
  range?: { low: string; high: string };
}

export type ChartRow = Record<string, string | number | null | undefined>;

/** A line across the chart: a promised figure (axis "y") or a moment on the x axis (axis "x"). */
export interface ChartReference {
  axis: "x" | "y";
  value: string | number;
  label: string;
  color: string;
  dashed?: boolean;
}

export interface ChartSpec {
  kind: "line" | "bar";
  data: ChartRow[];
  /** The key on the x axis: categories, or seconds on a time axis (xType "seconds"). */
  xKey: string;
  xType?: "category" | "seconds";
  /** Keys of data to plot → how to show them. */
  series: Record<string, SeriesConfig>;
  unit: ValueUnit;
  logScale?: boolean;
  /** Line charts: a dot per point (off for dense time series). */
  dots?: boolean;
  /** Reference lines drawn over the series (spec lines, change points). */
  references?: ChartReference[];
  height: number;
}

/** Colours that stay distinct in light and dark themes and for common colour blindness. */
export const SERIES_COLORS = {
  read: "#2f7ed8",
  write: "#e07b24",
  trim: "#8d5fd3",
  neutral: "#4a9a6b",
} as const;

/** Further series colours, cycled when a chart has more series than directions. */
export const PALETTE = ["#2f7ed8", "#e07b24", "#4a9a6b", "#8d5fd3", "#c8424b", "#1aa3a3", "#b58a00", "#7a7a7a"] as const;

export function paletteColor(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}
