import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Schema } from "../../../lib/api/types";
import { installFakeApi } from "../../../test/fake-api";
import { shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

function candidate(overrides: Partial<Schema<"Candidate">>): Schema<"Candidate"> {
  return {
    storage_class_id: 4,
    name: "Enhanced SSD (ESSD) cloud disk",
    vendor: "Cloud provider",
    protocol: "block",
    tier: "enhanced SSD",
    published: true,
    feasible: true,
    capacity_gib: 191,
    measured_capacity_gib: 239,
    proposed_capacity_gib: 239,
    provisioned_iops: null,
    provisioned_mbps: null,
    hosts: 1,
    min_hosts: 1,
    hosts_by_nic: null,
    hosts_by_iops: null,
    host_iops: [],
    price_per_gib_month: null,
    monthly_cost: null,
    headroom: 1.02,
    lines: [],
    measured_ratio: { metric: "iops", workload: "any", median: 0.8, low: 0.75, high: 0.85, n: 3, above_spec: 0, trusted: true },
    measurements: [],
    reasons: ["IOPS for every kind of test measured at 0.80× its spec (0.75–0.85, n=3)", "no price"],
    verification_presets: ["clouddisk-randread-iops", "clouddisk-seqwrite-throughput"],
    ...overrides,
  };
}

describe("the planner page", () => {
  it("sizes the classes for a preset workload and saves a candidate's verification plan", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "POST /api/v1/planner": {
        body: {
          candidates: [
            candidate({}),
            candidate({
              storage_class_id: 1,
              name: "SSD cloud disk",
              feasible: false,
              measured_ratio: null,
              reasons: ["SSD cloud disk caps at 20,000 IOPS for every kind of test at its largest volume (32,768 GiB)"],
            }),
          ],
          client: { host_nic_mbps: null, source: "no host of the team reports its NIC speed" },
        },
      },
      "POST /api/v1/planner/verification-plans": {
        status: 201,
        body: {
          plan: { id: 9, name: "Verify Enhanced SSD (ESSD) cloud disk at 239 GiB", description: null, jobs: [], preset_id: null, shared_files: false, version: 1, created_at: "2026-11-27T20:00:00Z", updated_at: null },
          storage_class_id: 4,
          capacity_gib: 239,
          presets: ["clouddisk-randread-iops", "clouddisk-seqwrite-throughput"],
          target_ids: [],
        },
      },
    });
    const { user } = renderApp("/planner");
    const form = await screen.findByRole("form", { name: "Workload" }, { timeout: 5_000 });
    await user.selectOptions(within(form).getByLabelText("Start from"), "Log writer");
    expect(within(form).getByLabelText("Value 1")).toHaveValue(200);
    await user.selectOptions(within(form).getByLabelText("Start from"), "OLTP database");
    await user.click(within(form).getByRole("button", { name: "Size the classes" }));

    const essd = await screen.findByRole("row", { name: /Enhanced SSD/ });
    expect(essd).toHaveTextContent("0.80× spec (0.75–0.85, n=3)");
    expect(essd).toHaveTextContent("no price");
    const ssd = screen.getByRole("row", { name: /^SSD cloud disk/ });
    expect(ssd).toHaveTextContent("caps at 20,000 IOPS");
    expect(within(ssd).queryByRole("button")).toBeNull();
    expect(api.callsTo("POST /api/v1/planner")[0]?.body).toEqual({
      demands: [
        { figure: "iops", value: 20000, rw: "randread", bs: "8k", latency_percentile: 99, latency_ms: 2 },
        { figure: "mbps", value: 300, rw: "write", bs: "1M" },
      ],
      constraints: { protocol: "block" },
    });

    await user.click(within(essd).getByRole("button", { name: "Create verification plan for Enhanced SSD (ESSD) cloud disk" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Saved plan Verify Enhanced SSD (ESSD) cloud disk at 239 GiB");
    await waitFor(() => expect(api.callsTo("POST /api/v1/planner/verification-plans")).toHaveLength(1));
    expect(api.callsTo("POST /api/v1/planner/verification-plans")[0]?.body).toMatchObject({ storage_class_id: 4 });
  }, 20_000);
});
