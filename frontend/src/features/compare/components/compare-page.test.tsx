import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Schema } from "../../../lib/api/types";
import { fakeRoutes, installFakeApi, type FakeRequest } from "../../../test/fake-api";
import { shellRoutes, signedOutRoutes } from "../../../test/factories";
import { createTestQueryClient, renderApp } from "../../../test/render-app";
import { SESSION_QUERY_KEY, hasSessionCookie } from "../../../lib/session";
import { groupChart, shapeLabel } from "./group-view";

type Comparison = Schema<"ComparisonOut">;
type Side = Schema<"SideOut">;
type GroupsView = Schema<"GroupsOut">;

function makeSide(overrides: Partial<Side> = {}): Side {
  return {
    index: 0,
    title: "before · randread-4k",
    series: "before",
    job_name: "randread-4k",
    host_name: "nfs-client-01",
    fingerprint: "a".repeat(64),
    result_ids: [1, 2, 3],
    n: 3,
    storage_class: "NAS performance",
    target_id: 3,
    run_ids: [7],
    measured_from: "2026-11-01T10:00:00Z",
    measured_to: "2026-11-01T10:05:00Z",
    reference: 0,
    is_baseline: true,
    ...overrides,
  };
}

const better: Schema<"VerdictOut"> = {
  kind: "better",
  test: "welch_t_log",
  test_reason: "storage figures vary by a factor, so log values; a rank test cannot reach p < 0.05 at n = 3",
  p_value: 0.0004,
  ratio: 1.2,
  ci_low: 1.15,
  ci_high: 1.26,
  n_reference: 3,
  n: 3,
  text: "better — +20.0 % (ratio 1.200, 95 % CI 1.150–1.260); Welch's t-test on log values p < 0.001, n = 3 vs 3",
};

function makeComparison(overrides: Partial<Comparison> = {}): Comparison {
  return {
    baseline_result_id: 1,
    result_ids: [1, 2, 3, 4, 5, 6],
    pooling: "measured",
    identical: false,
    differences: [{ component: "mount", key: "mount.nconnect", values: [1, 8] }],
    sides: [
      makeSide(),
      makeSide({ index: 1, title: "after · randread-4k", series: "after", result_ids: [4, 5, 6], is_baseline: false, reference: 0 }),
    ],
    rows: [
      {
        direction: "read",
        figure: "iops",
        unit: "IOPS",
        higher_is_better: true,
        cells: [
          { value: 10_000, samples: [9_900, 10_000, 10_100], delta: 0, delta_pct: 0, verdict: null },
          { value: 12_000, samples: [11_900, 12_000, 12_100], delta: 2_000, delta_pct: 20, verdict: better },
        ],
      },
      {
        direction: "read",
        figure: "clat_p99_ns",
        unit: "ns",
        higher_is_better: false,
        cells: [
          { value: 2_000_000, samples: [2_000_000], delta: 0, delta_pct: 0, verdict: null },
          { value: 1_500_000, samples: [1_500_000], delta: -500_000, delta_pct: -25, verdict: null },
        ],
      },
    ],
    permalink: "/compare?ids=1,2,3,4,5,6&baseline=1",
    ...overrides,
  };
}

const groups: GroupsView = {
  by: "storage_class",
  figure: "iops",
  direction: "read",
  unit: "IOPS",
  higher_is_better: true,
  note: "results are kept apart by job shape (rw, bs, iodepth, numjobs)",
  source: "rollup",
  truncated: false,
  groups: [
    {
      key: "NAS performance",
      shape: { rw: "randread", bs: "4096", iodepth: "32", numjobs: "1" },
      n: 3,
      median: 42_000,
      p25: 41_000,
      p75: 43_000,
      min: 40_000,
      max: 44_000,
      result_ids: [1, 2, 3],
      targets: 2,
      targets_disagree: "the targets disagree: target #3 median 44,000 (n = 2) vs target #4 40,000 (n = 1), quartiles apart",
      capacity_gib: 1000,
      per_gib: 42,
      price_per_gib_month: 0.3,
      dollars_per_1000_iops: 7.142857,
      dollars_per_mbps: null,
    },
    {
      key: "NAS performance",
      shape: { rw: "read", bs: "1048576", iodepth: "8", numjobs: "1" },
      n: 1,
      median: 900,
      p25: 900,
      p75: 900,
      min: 900,
      max: 900,
      result_ids: [9],
      capacity_gib: 1000,
      per_gib: 0.9,
      price_per_gib_month: 0.3,
      dollars_per_1000_iops: 333.3,
      dollars_per_mbps: null,
    },
  ],
};

function routes(comparison: Comparison = makeComparison()) {
  return fakeRoutes({
    ...shellRoutes(),
    "GET /api/v1/compare": { body: comparison },
    "GET /api/v1/compare/groups": { body: groups },
    "GET /api/v1/compare/previous": { body: makeComparison({ permalink: "/compare?ids=11,12&baseline=11" }) },
    "GET /api/v1/compare/views/5": {
      body: {
        id: 5,
        name: "nconnect 1 vs 8",
        kind: "compare",
        query: { ids: "1,2,3,4,5,6", baseline: "4" },
        path: "/compare?view=5",
        created_at: "2026-11-23T10:00:00Z",
        created_by: "teammate@example.com",
      },
    },
    "POST /api/v1/compare/views": {
      status: 201,
      body: {
        id: 9,
        name: "firmware",
        kind: "compare",
        query: { ids: "1,2,3,4,5,6", baseline: "1" },
        path: "/compare?view=9",
        created_at: "2026-11-23T10:00:00Z",
        created_by: "me@example.com",
      },
    },
  });
}

// Whole-app renders: a busy machine needs more than the default 5 s per test.
describe("compare page", { timeout: 30_000 }, () => {
  it("shows what differs before the numbers, then figures, deltas and the verdict", async () => {
    const api = installFakeApi(routes());
    renderApp("/compare?ids=1,2,3,4,5,6&baseline=1");

    const differences = await screen.findByRole("table", { name: "What differs between the sides" }, { timeout: 8_000 });
    const figures = screen.getByRole("table", { name: "Figures side by side" });
    // Differences come first in the page.
    expect(differences.compareDocumentPosition(figures) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(differences).getByRole("row", { name: /Mount nconnect 1 8/ })).toBeInTheDocument();

    const iops = within(figures).getByRole("row", { name: /IOPS/ });
    expect(within(iops).getByText("10.0k")).toHaveClass("num");
    expect(within(iops).getByText("12.0k")).toHaveClass("num");
    expect(within(iops).getByText("+20.0 %")).toHaveClass("delta-better");
    // The verdict in words and the test that decided, as text in the table (colour is not enough).
    expect(iops).toHaveTextContent("better");
    expect(iops).toHaveTextContent("Welch's t on logs, n = 3 vs 3");
    expect(screen.getByRole("list", { name: "Tests used" })).toHaveTextContent("a rank test cannot reach p < 0.05 at n = 3");
    const p99 = within(figures).getByRole("row", { name: /p99 completion latency/ });
    expect(within(p99).getByText("−25.0 %")).toHaveClass("delta-better");

    const verdicts = screen.getByRole("list", { name: "Verdicts" });
    expect(verdicts).toHaveTextContent("better — +20.0 %");
    expect(verdicts).toHaveTextContent("Welch's t-test on log values p < 0.001");
    expect(verdicts).toHaveTextContent("95 % CI 1.150–1.260");
    await waitFor(() => expect(document.title).toBe("Compare · storbench"));
    expect(screen.getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", "/api/v1/compare/export?ids=1%2C2%2C3%2C4%2C5%2C6&baseline=1&format=csv");
    expect(api.callsTo("GET /api/v1/compare")[0]?.query.get("ids")).toBe("1,2,3,4,5,6");
  });

  it("changes the baseline from its control and keeps it in the address", async () => {
    const api = installFakeApi(routes());
    const { user } = renderApp("/compare?ids=1,2,3,4,5,6&baseline=1");
    const control = await screen.findByLabelText("Baseline", {}, { timeout: 8_000 });
    await user.selectOptions(control, "4");
    await waitFor(() => expect(api.callsTo("GET /api/v1/compare").some((call) => call.query.get("baseline") === "4")).toBe(true), { timeout: 8_000 });
  });

  it("opens a teammate's saved view as the same comparison", async () => {
    const api = installFakeApi(routes());
    renderApp("/compare?view=5");
    expect(await screen.findByRole("heading", { name: "Compare: nconnect 1 vs 8" }, { timeout: 8_000 })).toBeInTheDocument();
    await screen.findByRole("table", { name: "Figures side by side" }, { timeout: 8_000 });
    const asked = api.callsTo("GET /api/v1/compare")[0]?.query;
    expect(asked?.get("ids")).toBe("1,2,3,4,5,6");
    expect(asked?.get("baseline")).toBe("4");
  });

  it("compares a run with the previous run of its plan, then keeps that comparison's permalink", async () => {
    const api = installFakeApi(routes());
    renderApp("/compare?previous_run=12");
    await screen.findByRole("table", { name: "Figures side by side" }, { timeout: 8_000 });
    expect(api.callsTo("GET /api/v1/compare/previous")[0]?.query.get("run_id")).toBe("12");
    await waitFor(() => expect(api.callsTo("GET /api/v1/compare").some((call) => call.query.get("ids") === "11,12")).toBe(true), { timeout: 8_000 });
  });

  it("saves the comparison under a name for the team", async () => {
    const api = installFakeApi(routes());
    const { user } = renderApp("/compare?ids=1,2,3,4,5,6&baseline=1");
    await user.type(await screen.findByLabelText("View name", {}, { timeout: 8_000 }), "firmware");
    await user.click(screen.getByRole("button", { name: "Save view" }));
    expect(await screen.findByText(/Saved as “firmware”/, {}, { timeout: 8_000 })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/compare/views")[0]?.body).toEqual({
      name: "firmware",
      kind: "compare",
      query: { ids: "1,2,3,4,5,6", baseline: "1" },
    });
  });

  it("asks for a comparison opened by its address beside the session check, and only once", async () => {
    document.cookie = "storbench_csrf=abc";
    const queryClient = createTestQueryClient();
    const sessionKnownWhenAsked: boolean[] = [];
    const api = installFakeApi({
      ...routes(),
      "GET /api/v1/compare": () => {
        sessionKnownWhenAsked.push(queryClient.getQueryData(SESSION_QUERY_KEY) !== undefined);
        return { body: makeComparison() };
      },
    });
    renderApp("/compare?ids=1,2,3,4,5,6&baseline=1", queryClient);
    await screen.findByRole("table", { name: "Figures side by side" }, { timeout: 8_000 });
    await screen.findByRole("table", { name: "Groups" }, { timeout: 8_000 });
    // Asked by the route's loader before the session's answer was known, not after it.
    expect(sessionKnownWhenAsked).toEqual([false]);
    expect(api.callsTo("GET /api/v1/compare")).toHaveLength(1);
    expect(api.callsTo("GET /api/v1/compare/groups")).toHaveLength(1);
    expect(api.callsTo("GET /api/v1/compare")[0]?.query.get("baseline")).toBe("1");
    expect(Object.fromEntries(api.callsTo("GET /api/v1/compare/groups")[0]?.query ?? [])).toEqual({
      ids: "1,2,3,4,5,6",
      by: "storage_class",
      figure: "iops",
      direction: "read",
    });
    document.cookie = "storbench_csrf=; expires=Thu, 01 Jan 1970 00:00:00 GMT";
  });

  it("asks for nothing but the session without a session cookie, and signs in first", async () => {
    const api = installFakeApi({ ...routes(), ...signedOutRoutes() });
    renderApp("/compare?ids=1,2");
    expect(await screen.findByRole("button", { name: "Sign in" }, { timeout: 8_000 })).toBeInTheDocument();
    expect(api.callsTo("GET /api/v1/compare")).toHaveLength(0);
    expect(hasSessionCookie("a=1; storbench_csrf=x")).toBe(true);
    expect(hasSessionCookie("not_storbench_csrf=x")).toBe(false);
  });

  it("draws the grouped chart once the comparison is on screen", async () => {
    installFakeApi(routes());
    renderApp("/compare?ids=1,2,3,4,5,6&baseline=1");
    await screen.findByRole("table", { name: "Figures side by side" }, { timeout: 8_000 });
    const chart = await screen.findByRole("figure", { name: "Grouped comparison" }, { timeout: 8_000 });
    await waitFor(() => expect(within(chart).queryByText("Loading chart…")).not.toBeInTheDocument(), { timeout: 8_000 });
  });

  it("groups with spread and price per group, one category per job shape", async () => {
    installFakeApi(routes());
    renderApp("/compare?ids=1,2,3,4,5,6&baseline=1");
    const table = await screen.findByRole("table", { name: "Groups" }, { timeout: 8_000 });
    const perf = within(table).getByRole("row", { name: /randread 4 KiB QD32/ });
    expect(perf).toHaveTextContent("42.0k");
    expect(perf).toHaveTextContent("41.0k – 43.0k");
    expect(perf).toHaveTextContent("$7.14");
    const warnings = screen.getByRole("list", { name: "Groups whose targets disagree" });
    expect(warnings).toHaveTextContent("NAS performance · randread 4 KiB QD32 ×1: the targets disagree: target #3");
  });
});

describe("group chart", () => {
  it("never averages job shapes: one category per shape, one bar per group key", () => {
    const { rows, series } = groupChart(groups);
    expect(rows).toEqual([
      { shape: "randread 4 KiB QD32 ×1", g0: 42_000, g0_p25: 41_000, g0_p75: 43_000, g0_n: 3 },
      { shape: "read 1 MiB QD8 ×1", g0: 900, g0_p25: 900, g0_p75: 900, g0_n: 1 },
    ]);
    // Each group's n in the legend, its p25–p75 as error bars.
    expect(series.g0?.label).toBe("NAS performance (n = 4)");
    expect(series.g0?.range).toEqual({ low: "g0_p25", high: "g0_p75" });
    expect(shapeLabel({ rw: "randread" })).toBe("randread");
  });
});

const poolOf = (call: FakeRequest) => call.query.get("pool");

describe("the compare page's pooling toggle", () => {
  it("pools by what was measured by default, by run when chosen, and keeps the choice in the address", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/compare": (request) => ({ body: makeComparison({ pooling: request.query.get("pool") === "run" ? "run" : "measured" }) }),
      "GET /api/v1/compare/groups": { status: 404, body: { code: "not_found", message: "not in this test" } },
    });
    const { user, router } = renderApp("/compare?ids=1,2");

    const measured = await screen.findByRole("radio", { name: "What was measured" }, { timeout: 8_000 });
    expect(measured).toBeChecked();
    expect(poolOf(api.callsTo("GET /api/v1/compare")[0]!)).toBeNull();

    await user.click(screen.getByRole("radio", { name: "Run" }));
    await waitFor(() => expect(api.callsTo("GET /api/v1/compare").some((call) => poolOf(call) === "run")).toBe(true));
    expect(router.state.location.search).toContain("pool=run");
    await waitFor(() => expect(screen.getByRole("radio", { name: "Run" })).toBeChecked());

    await user.click(screen.getByRole("radio", { name: "What was measured" }));
    await waitFor(() => expect(router.state.location.search).not.toContain("pool"));
  });

  it("opens pooled by run from the address", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/compare": { body: makeComparison({ pooling: "run" }) },
      "GET /api/v1/compare/groups": { status: 404, body: { code: "not_found", message: "not in this test" } },
    });
    renderApp("/compare?ids=1,2&pool=run");

    expect(await screen.findByRole("radio", { name: "Run" }, { timeout: 8_000 })).toBeChecked();
    expect(poolOf(api.callsTo("GET /api/v1/compare")[0]!)).toBe("run");
  });
});
