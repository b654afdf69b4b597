// A two-axis sweep as a grid: a curve per value of the other axis (its `fixed` options), so the rows
// are that axis's values and the columns the curve's. Pure, so the grid is tested without a chart.

import type { Curve } from "../api/get-curves";

export interface HeatGrid {
  /** The other swept option (the rows), e.g. numjobs when the curves run along iodepth. */
  across: string;
  rows: number[];
  columns: number[];
  /** cells[row][column]: the median figure there, null where not measured. */
  cells: (number | null)[][];
  low: number;
  high: number;
}

/** The grid of one run's aggregate curves, or null when they vary along one axis only. */
export function heatGrid(curves: Curve[]): HeatGrid | null {
  const shown = curves.filter((curve) => curve.host_name === null);
  const runs = new Set(shown.map((curve) => curve.run_id));
  if (shown.length < 2 || runs.size !== 1) return null;
  const names = Object.keys(shown[0]?.fixed ?? {});
  const across = names.find((name) => new Set(shown.map((curve) => curve.fixed?.[name])).size > 1);
  if (!across) return null;
  const byRow = new Map(shown.map((curve) => [curve.fixed?.[across] ?? 0, curve]));
  if (byRow.size !== shown.length) return null; // another option varies too: not one grid
  const rows = [...byRow.keys()].sort((a, b) => a - b);
  const columns = [...new Set(shown.flatMap((curve) => curve.points.map((point) => point.value)))].sort((a, b) => a - b);
  const cells = rows.map((row) =>
    columns.map((column) => byRow.get(row)?.points.find((point) => point.value === column)?.median ?? null),
  );
  const known = cells.flat().filter((value): value is number => value !== null);
  return { across, rows, columns, cells, low: Math.min(...known), high: Math.max(...known) };
}

/** A cell's shade: 0 for the grid's lowest figure, 1 for its highest. */
export function shade(grid: HeatGrid, value: number): number {
  return grid.high > grid.low ? (value - grid.low) / (grid.high - grid.low) : 1;
}
