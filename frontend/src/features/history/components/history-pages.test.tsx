import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makeTarget, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";
import type { Trend } from "../api/get-trend";
import type { ChangePoint } from "../api/list-regressions";

function makeChange(overrides: Partial<ChangePoint> = {}): ChangePoint {
  return {
    id: 5,
    target_id: 3,
    job_name: "randread-4k",
    direction: "read",
    metric: "iops",
    fingerprint: "f".repeat(64),
    result_id: 110,
    measured_at: "2026-01-10T00:00:00Z",
    kind: "regression",
    before_median: 10_000,
    after_median: 7_000,
    ratio: 0.7,
    p_value: 0.002,
    method: "e-divisive",
    detected_at: "2026-01-12T00:00:00Z",
    acknowledged_at: null,
    acknowledged_by: null,
    comment: null,
    ...overrides,
  };
}

const LEVELS = [10_050, 9_900, 10_100, 9_950, 10_000, 7_020, 6_950, 7_080];

function makeTrend(overrides: Partial<Trend> = {}): Trend {
  return {
    target_id: 3,
    job: "randread-4k",
    metric: "iops",
    direction: "read",
    fingerprint: null,
    unit: "IOPS",
    points: LEVELS.map((value, index) => ({
      result_id: 105 + index,
      measured_at: `2026-01-${String(5 + index).padStart(2, "0")}T00:00:00Z`,
      value,
      fingerprint: "f".repeat(64),
      run_id: null,
      host_name: "client-a",
      repetition: 0,
    })),
    truncated: false,
    limit: 5000,
    spec: {
      storage_class_id: 2,
      storage_class: "ESSD PL1",
      spec_version: 1,
      workload: "any",
      value: 20_000,
      low: null,
      published: "20,000 IOPS",
      formula: "min(1800 + 50 * C, 50000)",
    },
    change_points: [makeChange()],
    ...overrides,
  };
}

describe("history page", () => {
  it("shows the chosen trend with its spec line and the regression found on it", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/targets": { body: page([makeTarget({ id: 3, name: "nas-a" }), makeTarget({ id: 4, name: "nas-b" })]) },
      "GET /api/v1/history/series": {
        body: page([{ job: "randread-4k", direction: "read", results: 8, last_measured_at: "2026-01-12T00:00:00Z" }]),
      },
      "GET /api/v1/history/trend": { body: makeTrend() },
      "GET /api/v1/regressions": { body: { items: [makeChange()], total: 1, unacknowledged_regressions: 1 } },
      "GET /api/v1/results/unfiled": { body: { items: [], total: 0, results: 0 } },
    });
    const { user } = renderApp("/history");

    expect(await screen.findByText(/Choose a target and one of its jobs/)).toBeInTheDocument();
    expect(await screen.findByRole("link", { name: "1 unacknowledged regression" })).toHaveAttribute("href", "/regressions");
    await user.selectOptions(screen.getByLabelText("Target"), "nas-a");
    const job = screen.getByLabelText("Job and direction");
    await waitFor(() => expect(within(job).getByRole("option", { name: "randread-4k · read (8)" })).toBeInTheDocument());
    await user.selectOptions(job, "randread-4k · read (8)");

    const chart = await screen.findByRole("figure", { name: "IOPS of randread-4k (read) over time" });
    expect(chart).toHaveTextContent("8 results, oldest first");
    expect(chart).toHaveTextContent("what ESSD PL1 promises");
    const changes = screen.getByRole("table", { name: "Changes on this trend" });
    const row = within(changes).getByRole("row", { name: /#110/ });
    expect(row).toHaveTextContent("regression −30.0 %");
    expect(row).toHaveTextContent("10.0k → 7.00k");
    expect(within(row).getByRole("button", { name: /^Acknowledge the regression from .*#110$/ })).toBeInTheDocument();
    const [query] = api.callsTo("GET /api/v1/history/trend").map((call) => call.query);
    expect(Object.fromEntries(query!)).toEqual({ target_id: "3", job: "randread-4k", metric: "iops", direction: "read" });
    await waitFor(() => expect(document.title).toBe("History · storbench"));
    }, 20_000);

  it("reads its selection from the URL and says when older points are left out", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/targets": { body: page([makeTarget({ id: 3, name: "nas-a" })]) },
      "GET /api/v1/history/series": { body: page([]) },
      "GET /api/v1/history/trend": { body: makeTrend({ metric: "clat_p99_ns", unit: "ns", truncated: true, spec: null, change_points: [] }) },
      "GET /api/v1/regressions": { body: { items: [], total: 0, unacknowledged_regressions: 0 } },
      "GET /api/v1/results/unfiled": { body: { items: [], total: 0, results: 0 } },
    });
    renderApp("/history?target_id=3&job=randread-4k&metric=clat_p99_ns&direction=read");

    const chart = await screen.findByRole("figure", { name: "p99 completion latency of randread-4k (read) over time" });
    expect(chart).toHaveTextContent("only the newest 5,000");
    expect(screen.getByRole("row", { name: "No change found on this trend." })).toBeInTheDocument();
    expect(api.callsTo("GET /api/v1/history/trend")[0]!.query.get("metric")).toBe("clat_p99_ns");
  });
});

describe("acknowledging from the trend", () => {
  it("acknowledges a marked regression (its whole step) with a comment", async () => {
    let acknowledged = false;
    const done = { acknowledged_at: "2026-01-13T00:00:00Z", acknowledged_by: "ana@example.com", comment: "noisy neighbour" };
    const api = installFakeApi({
      ...shellRoutes({ role: "member" }),
      "GET /api/v1/targets": { body: page([makeTarget({ id: 3, name: "nas-a" })]) },
      "GET /api/v1/history/series": { body: page([]) },
      "GET /api/v1/history/trend": () => ({ body: makeTrend({ change_points: [makeChange(acknowledged ? done : {})] }) }),
      "GET /api/v1/regressions": { body: { items: [], total: 0, unacknowledged_regressions: 0 } },
      "POST /api/v1/regressions/5/acknowledge": () => {
        acknowledged = true;
        return { body: makeChange(done) };
      },
    });
    const { user } = renderApp("/history?target_id=3&job=randread-4k&metric=iops&direction=read");

    const changes = await screen.findByRole("table", { name: "Changes on this trend" });
    await user.click(within(changes).getByRole("button", { name: /^Acknowledge the regression from/ }));
    const form = screen.getByRole("form", { name: "Acknowledge change 5" });
    await user.type(within(form).getByLabelText("Comment"), "noisy neighbour");
    await user.click(within(form).getByRole("button", { name: "Acknowledge" }));

    await waitFor(() => expect(within(changes).getByRole("row", { name: /#110/ })).toHaveTextContent("by ana@example.com: noisy neighbour"));
    expect(api.callsTo("POST /api/v1/regressions/5/acknowledge")[0]!.body).toEqual({ comment: "noisy neighbour" });
  }, 20_000);

  it("offers viewers no acknowledge button", async () => {
    installFakeApi({
      ...shellRoutes({ role: "viewer" }),
      "GET /api/v1/targets": { body: page([makeTarget({ id: 3, name: "nas-a" })]) },
      "GET /api/v1/history/series": { body: page([]) },
      "GET /api/v1/history/trend": { body: makeTrend() },
      "GET /api/v1/regressions": { body: { items: [], total: 0, unacknowledged_regressions: 0 } },
    });
    renderApp("/history?target_id=3&job=randread-4k&metric=iops&direction=read");

    const changes = await screen.findByRole("table", { name: "Changes on this trend" });
    expect(within(changes).getByRole("row", { name: /#110/ })).toHaveTextContent("not yet");
    expect(within(changes).queryByRole("button")).not.toBeInTheDocument();
  });
});

describe("regressions page", () => {
  it("lists changes with the unacknowledged count and acknowledges one with a comment", async () => {
    let acknowledged = false;
    const api = installFakeApi({
      ...shellRoutes({ role: "member" }),
      "GET /api/v1/targets": { body: page([makeTarget({ id: 3, name: "nas-a" })]) },
      "GET /api/v1/regressions": () => ({
        body: {
          items: [
            acknowledged
              ? makeChange({ acknowledged_at: "2026-01-13T00:00:00Z", acknowledged_by: "ana@example.com", comment: "pool moved" })
              : makeChange(),
            makeChange({ id: 6, kind: "improvement", metric: "lat_mean_ns", ratio: 0.5, before_median: 2e6, after_median: 1e6 }),
          ],
          total: 2,
          unacknowledged_regressions: acknowledged ? 0 : 1,
        },
      }),
      "POST /api/v1/regressions/5/acknowledge": () => {
        acknowledged = true;
        return { body: makeChange({ acknowledged_at: "2026-01-13T00:00:00Z", acknowledged_by: "ana@example.com", comment: "pool moved" }) };
      },
    });
    const { user } = renderApp("/regressions");

    expect(await screen.findByText("1 regression not yet acknowledged.")).toBeInTheDocument();
    const table = screen.getByRole("table", { name: "Changes found" });
    const regression = within(table).getByRole("row", { name: /IOPS/ });
    expect(within(regression).getByRole("link", { name: "nas-a · randread-4k · read · IOPS" })).toHaveAttribute(
      "href",
      "/history?target_id=3&job=randread-4k&metric=iops&direction=read",
    );
    const improvement = within(table).getByRole("row", { name: /Mean latency/ });
    expect(improvement).toHaveTextContent("improvement −50.0 %");
    expect(improvement).toHaveTextContent("2.00 ms → 1.00 ms");

    await user.click(within(regression).getByRole("button", { name: /Acknowledge regression/ }));
    const form = screen.getByRole("form", { name: "Acknowledge change 5" });
    const submit = within(form).getByRole("button", { name: "Acknowledge" });
    expect(submit).toBeDisabled();
    await user.type(within(form).getByLabelText("Comment"), "pool moved");
    await user.click(submit);

    await waitFor(() => expect(screen.getByText("Every regression has been acknowledged.")).toBeInTheDocument());
    expect(api.callsTo("POST /api/v1/regressions/5/acknowledge")[0]!.body).toEqual({ comment: "pool moved" });
    expect(within(screen.getByRole("table", { name: "Changes found" })).getByRole("row", { name: /IOPS/ })).toHaveTextContent(
      "ana@example.com: pool moved",
    );
  }, 20_000);

  it("shows every figure of a step and what changed in how it was measured", async () => {
    installFakeApi({
      ...shellRoutes({ role: "viewer" }),
      "GET /api/v1/targets": { body: page([makeTarget({ id: 3, name: "nas-a" })]) },
      "GET /api/v1/regressions": {
        body: {
          items: [
            makeChange({
              step_id: 5,
              step_figures: [
                { id: 5, direction: "read", metric: "iops", before_median: 10_000, after_median: 7_000, ratio: 0.7 },
                { id: 7, direction: "read", metric: "clat_p99_ns", before_median: 1e6, after_median: 2e6, ratio: 2 },
              ],
              likely_causes: [{ component: "kernel", key: "environment.kernel", before: "6.1.0", after: "6.8.0" }],
              what_changed: "kernel 6.1.0 → 6.8.0",
            }),
            makeChange({ id: 9, result_id: 140, what_changed: "nothing in how it was measured changed: the storage itself did" }),
          ],
          total: 2,
          unacknowledged_regressions: 2,
        },
      },
    });
    renderApp("/regressions");

    const figures = await screen.findByRole("list", { name: "Figures that changed at result 110" });
    expect(within(figures).getAllByRole("listitem")).toHaveLength(2);
    expect(figures).toHaveTextContent("read p99 completion latency: 1.00 ms → 2.00 ms");
    const causes = screen.getByRole("list", { name: "Likely causes of the change at result 110" });
    expect(causes).toHaveTextContent("kernel: 6.1.0 → 6.8.0");
    const steady = screen.getAllByRole("row").find((row) => row.textContent?.includes("result #140"))!;
    expect(steady).toHaveTextContent("nothing in how it was measured changed: the storage itself did");
  });

  it("lets viewers read but not acknowledge, and filters by state in the URL", async () => {
    const api = installFakeApi({
      ...shellRoutes({ role: "viewer" }),
      "GET /api/v1/targets": { body: page([]) },
      "GET /api/v1/regressions": { body: { items: [makeChange()], total: 1, unacknowledged_regressions: 1 } },
    });
    const { user } = renderApp("/regressions");

    const table = await screen.findByRole("table", { name: "Changes found" });
    expect(within(table).queryByRole("button")).not.toBeInTheDocument();
    expect(within(table).getByRole("row", { name: /target 3/ })).toHaveTextContent("not yet");
    await user.selectOptions(screen.getByLabelText("State"), "unacknowledged");
    await waitFor(() =>
      expect(api.callsTo("GET /api/v1/regressions").some((call) => call.query.get("acknowledged") === "false")).toBe(true),
    );
    await waitFor(() => expect(document.title).toBe("Regressions · storbench"));
  });
});
