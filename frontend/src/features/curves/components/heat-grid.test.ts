import { describe, expect, it } from "vitest";
import type { Curve } from "../api/get-curves";
import { heatGrid, shade } from "./heat-grid";

function curve(numjobs: number, medians: [number, number][], runId = 7): Curve {
  return {
    key: `run ${runId} · numjobs=${numjobs}`,
    title: `run ${runId} · numjobs ${numjobs}`,
    run_id: runId,
    host_name: null,
    hosts: ["h"],
    job_names: ["r"],
    storage_class: null,
    label: null,
    fixed: { numjobs },
    points: medians.map(([value, median]) => ({ value, median, low: median, high: median, n: 1, lat_mean_ns: 1, clat_p99_ns: 1, partial: false, result_ids: [] })),
    knee: null,
    knee_reason: "",
    spec_line: null,
    highest_load_under_bound: null,
  } as Curve;
}

describe("heatGrid", () => {
  it("makes a row per value of the other swept axis and a column per point", () => {
    const grid = heatGrid([curve(2, [[1, 2000], [4, 8000]]), curve(1, [[1, 1000], [4, 4000]])]);
    expect(grid?.across).toBe("numjobs");
    expect(grid?.rows).toEqual([1, 2]);
    expect(grid?.columns).toEqual([1, 4]);
    expect(grid?.cells).toEqual([[1000, 4000], [2000, 8000]]);
    expect(grid && shade(grid, 8000)).toBe(1);
  });

  it("is no grid for one curve, or for sweeps of several runs overlaid", () => {
    expect(heatGrid([curve(1, [[1, 1000]])])).toBeNull();
    expect(heatGrid([curve(1, [[1, 1000]], 7), curve(2, [[1, 1000]], 8)])).toBeNull();
  });
});
