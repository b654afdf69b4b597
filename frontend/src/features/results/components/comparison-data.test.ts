import { describe, expect, it } from "vitest";
import { makeDirection, makeResult } from "../../../test/factories";
import { buildComparison, MAX_GROUPS } from "./comparison-data";

const read = (iops: number, p99: number) =>
  makeDirection({ iops, bw_bytes: iops * 4096, clat_ns: { ...makeDirection().clat_ns!, percentiles: { "99": p99 } } });

describe("buildComparison", () => {
  const results = [
    makeResult({ id: 1, label: "filer-a", storage_class: "nas", job_name: "randread", directions: { read: read(1000, 2e6) } }),
    makeResult({ id: 2, label: "filer-a", storage_class: "nas", job_name: "randread", directions: { read: read(3000, 4e6) } }),
    makeResult({ id: 3, label: "efs-1", storage_class: "efs", job_name: "randread", directions: { read: read(500, 9e6) } }),
    makeResult({ id: 4, label: null, storage_class: "efs", job_name: "seqwrite", directions: { write: read(90, 1e7) } }),
  ];

  it("puts one bar per label on each workload, the mean of its results", () => {
    const { rows, series } = buildComparison(results, "iops", "label");
    // Most results first; a result without a label goes under its storage class.
    expect(Object.values(series).map((item) => item.label)).toEqual(["filer-a", "efs", "efs-1"]);
    const label = (name: string) => Object.entries(series).find(([, item]) => item.label === name)![0];
    expect(rows).toEqual([
      { workload: "randread read", [label("filer-a")]: 2000, [label("efs-1")]: 500 },
      { workload: "seqwrite write", [label("efs")]: 90 },
    ]);
  });

  it("compares storage classes by bandwidth or p99 latency", () => {
    const byClass = buildComparison(results, "p99", "storage_class");
    const key = (name: string) => Object.entries(byClass.series).find(([, item]) => item.label === name)![0];
    expect(byClass.rows[0]).toEqual({ workload: "randread read", [key("nas")]: 3e6, [key("efs")]: 9e6 });
    expect(buildComparison(results, "bandwidth", "storage_class").rows[1]).toEqual({ workload: "seqwrite write", [key("efs")]: 90 * 4096 });
  });

  it("keeps the groups with most results when there are too many to read", () => {
    const many = Array.from({ length: MAX_GROUPS + 2 }, (_, index) =>
      makeResult({ id: index, label: `class-${index}`, storage_class: null }),
    );
    many.push(makeResult({ id: 99, label: "class-9" }));
    const { series, hiddenGroups } = buildComparison(many, "iops", "label");
    expect(Object.keys(series)).toHaveLength(MAX_GROUPS);
    expect(Object.values(series)[0]?.label).toBe("class-9");
    expect(hiddenGroups).toEqual(["class-7", "class-8"]);
  });
});
