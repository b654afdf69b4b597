import { describe, expect, it } from "vitest";
import type { Curve } from "../api/get-curves";
import { axisLabel, curveRows, kneeText } from "./curve-rows";

function curve(key: string, values: [number, number][], knee: number | null): Curve {
  return {
    key,
    title: key,
    run_id: 1,
    host_name: null,
    hosts: ["host-a"],
    job_names: ["randwrite"],
    storage_class: null,
    label: null,
    points: values.map(([value, median]) => ({
      value,
      median,
      low: median,
      high: median,
      n: 1,
      lat_mean_ns: (value / median) * 1e9,
      clat_p99_ns: null,
      partial: false,
      result_ids: [value],
    })),
    knee: knee === null ? null : { value: knee, next_value: knee * 2, gain: 0.01, latency_rise: 1 },
    knee_reason: knee === null ? "no knee between 1 and 4" : "the queue only adds wait",
    spec_line: null,
    highest_load_under_bound: null,
  };
}

describe("curve rows", () => {
  it("overlays two sweeps on the union of their axis values", () => {
    const rows = curveRows(
      [curve("sata", [[1, 332], [2, 333]], 1), curve("raid0", [[1, 1216], [4, 5370]], null)],
      "median",
    );
    expect(rows).toEqual([
      { value: 1, sata: 332, raid0: 1216 },
      { value: 2, sata: 333, raid0: null },
      { value: 4, sata: null, raid0: 5370 },
    ]);
  });

  it("says where the knee is, or why there is none", () => {
    expect(kneeText("iodepth", curve("sata", [[1, 332]], 1))).toBe("Knee at iodepth 1: the queue only adds wait");
    expect(kneeText("iodepth", curve("raid0", [[1, 1216]], null))).toBe("No knee: no knee between 1 and 4");
  });

  it("writes block sizes in binary units", () => {
    expect(axisLabel("bs", 4096)).toBe("4 KiB");
    expect(axisLabel("bs", 1048576)).toBe("1 MiB");
    expect(axisLabel("iodepth", 32)).toBe("32");
  });
});
