import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../test/fake-api";
import {
  makeDirection,
  makeFinding,
  makeResult,
  makeRun,
  makeSpecCheck,
  makeTarget,
  page,
  resultPage,
  shellRoutes,
} from "../../test/factories";
import { renderApp } from "../../test/render-app";

const judged = makeResult({
  id: 31,
  run_id: 7,
  label: "ebs-data",
  directions: { read: makeDirection(), write: makeDirection({ iops: 6_200 }) },
  spec_checks: [
    makeSpecCheck({ direction: "read", verdict: "meets", percent: 101.2, expected: 20_000, measured: 20_240 }),
    makeSpecCheck({ direction: "write", verdict: "below", percent: 62, expected: 10_000, measured: 6_200 }),
    makeSpecCheck({
      direction: "read",
      metric: "throughput",
      unit: "MB/s",
      verdict: "above",
      percent: 300,
      expected: 300,
      measured: 900,
    }),
  ],
  findings: [
    makeFinding({ severity: "critical", message: "The working set fits in the server's cache.", fix: "Use size=4x RAM." }),
    makeFinding({ severity: "info", message: "iodepth 1 with numjobs 1.", fix: "Raise iodepth to 32.", direction: null }),
  ],
});

describe("a result judged by its storage class's spec", () => {
  it("shows each direction's verdicts and a count of findings in the history", async () => {
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/targets": { body: page([makeTarget()]) },
      "GET /api/v1/results": { body: resultPage([judged, makeResult({ id: 32, run_id: 8, label: "plain" })]) },
    });
    renderApp("/results");

    const table = await screen.findByRole("table", { name: "Result history" });
    const [readRow, writeRow] = within(table).getAllByRole("row", { name: /ebs-data/ });
    expect(readRow).toHaveTextContent("meets spec (101% of 20,000 IOPS)");
    expect(readRow).toHaveTextContent("above spec — server cache suspected (300% of 300 MB/s, 286 MiB/s)");
    expect(readRow).not.toHaveTextContent("below spec");
    expect(writeRow).toHaveTextContent("below spec (62% of 10,000 IOPS)");
    expect(writeRow).not.toHaveTextContent("meets spec");
    expect(within(readRow!).getByText("2 findings")).toBeInTheDocument();
    // The full list is on the run page, not in the table.
    expect(within(table).queryByText(/Fix:/)).not.toBeInTheDocument();
    const plain = within(table).getByRole("row", { name: /plain/ });
    expect(plain).not.toHaveTextContent(/spec|finding/);
  });

  it("lists the verdicts and the findings with their severity and fix on the run page", async () => {
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/runs/7": { body: makeRun({ id: 7, status: "completed", finished_at: new Date().toISOString(), results: [judged] }) },
    });
    renderApp("/runs/7");

    const checks = await screen.findByRole("group", { name: "Spec checks of randread on nfs-client-01" });
    expect(checks).toHaveTextContent("read iops: meets spec (101% of 20,000 IOPS)");
    expect(checks).toHaveTextContent("write iops: below spec (62% of 10,000 IOPS)");
    expect(within(checks).getByText(/above spec — server cache suspected/)).toHaveAttribute(
      "title",
      expect.stringContaining("measured 900 MB/s"),
    );

    const findings = screen.getByRole("list", { name: "Findings for randread on nfs-client-01" });
    const [cache, depth] = within(findings).getAllByRole("listitem");
    expect(cache).toHaveTextContent("critical");
    expect(cache).toHaveTextContent("The working set fits in the server's cache.");
    expect(cache).toHaveTextContent("Fix: Use size=4x RAM.");
    expect(depth).toHaveTextContent("info");
    expect(depth).toHaveTextContent("Fix: Raise iodepth to 32.");
  });
});
