import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { makeDirection, makeResult } from "../../../test/factories";
import { histogramRows } from "./latency-histogram-chart";
import { ResultSummary } from "./result-summary";

const spreadResult = makeResult({
  directions: {
    read: makeDirection({
      iops_spread: { min: 8, max: 56_935, mean: 35_846.6, stddev: 20_226.8, samples: 9 },
      bw_spread: { min: 35 * 1024, max: 227_743 * 1024, mean: 143_387 * 1024, stddev: 80_907 * 1024, samples: 9 },
      clat_histogram: [
        { low_ns: 262_144, high_ns: 524_288, count: 400_000 },
        { low_ns: 524_288, high_ns: 1_048_576, count: 500_000 },
        { low_ns: 1_048_576, high_ns: 2_097_152, count: 0 },
        { low_ns: 2_097_152, high_ns: 4_194_304, count: 15_468 },
      ],
    }),
  },
});

describe("a result's figures", () => {
  it("shows bandwidth in MiB/s with the vendors' MB/s beside it", () => {
    render(<ResultSummary result={makeResult()} />);
    const row = within(screen.getByRole("table", { name: /^Figures for/ })).getByRole("row", { name: /^read/ });
    expect(within(row).getByText("59.6 MiB/s")).toBeInTheDocument();
    expect(within(row).getByText("62.5 MB/s")).toBeInTheDocument();
  });

  it("shows how IOPS, bandwidth and latency varied over the run, from fio's samples", () => {
    render(<ResultSummary result={spreadResult} />);
    const table = screen.getByRole("table", { name: /Spread over the run/ });
    const row = within(table).getByRole("row", { name: /^read/ });
    const cells = within(row).getAllByRole("cell").map((cell) => cell.textContent);
    expect(cells).toEqual(["8", "56.9k", "20.2k", "35.0 KiB/s", "222 MiB/s", "80.0 µs", "12.5 ms", "120 µs"]);
    for (const cell of within(row).getAllByRole("cell")) expect(cell).toHaveClass("num");
  });

  it("draws a latency histogram from the power-of-two buckets, gaps included", () => {
    render(<ResultSummary result={spreadResult} />);
    expect(screen.getByRole("figure", { name: "Latency histogram: randread on nfs-client-01" })).toBeInTheDocument();
    const { rows } = histogramRows(spreadResult);
    expect(rows.map((row) => [row.bucket, row.read])).toEqual([
      ["262 µs", 400_000],
      ["524 µs", 500_000],
      ["1.05 ms", 0],
      ["2.1 ms", 15_468],
    ]);
  });

  it("has no histogram without fio's json+ bins", () => {
    render(<ResultSummary result={makeResult()} />);
    expect(screen.queryByRole("figure", { name: /Latency histogram/ })).not.toBeInTheDocument();
  });
});
