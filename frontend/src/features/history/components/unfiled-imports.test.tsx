import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makeTarget, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";
import type { UnfiledGroup } from "../api/list-unfiled";

function makeGroup(overrides: Partial<UnfiledGroup> = {}): UnfiledGroup {
  return {
    host_name: "old-client",
    job_name: "randread-4k",
    results: 3,
    fingerprints: 1,
    first_measured_at: "2026-01-02T00:00:00Z",
    last_measured_at: "2026-01-09T00:00:00Z",
    newest_result_id: 41,
    ...overrides,
  };
}

describe("imports without a target on the history page", () => {
  it("lists them by host name and job and files a host's imports under a target", async () => {
    const api = installFakeApi({
      ...shellRoutes({ role: "member" }),
      "GET /api/v1/targets": {
        body: page([makeTarget({ id: 3, name: "nas-a", host_name: "nas-client" }), makeTarget({ id: 4, name: "old", host_name: "old-client" })]),
      },
      "GET /api/v1/regressions": { body: { items: [], total: 0, unacknowledged_regressions: 0 } },
      "GET /api/v1/results/unfiled": {
        body: { items: [makeGroup(), makeGroup({ job_name: "seqwrite", results: 2, fingerprints: 2, newest_result_id: 44 })], total: 2, results: 5 },
      },
      "POST /api/v1/results/file": {
        body: {
          target_id: 3,
          target_name: "nas-a",
          target_host_name: "nas-client",
          result_ids: [38, 39, 41, 43, 44],
          notices: ["measured on 'old-client', filed under target 'nas-a' of host 'nas-client': they now count there"],
        },
      },
    });
    const { user } = renderApp("/history");

    const table = await screen.findByRole("table", { name: "Imports without a target, by host name and job" });
    const row = within(table).getByRole("row", { name: /seqwrite/ });
    expect(row).toHaveTextContent("measured 2 ways");
    expect(within(row).getByRole("link", { name: "newest" })).toHaveAttribute("href", "/results/44");
    await user.click(within(row).getByRole("button", { name: "File under a target…" }));

    const dialog = screen.getByRole("dialog", { name: "File imports of old-client" });
    // The target on the imports' own host is proposed first.
    expect(within(dialog).getByLabelText("Target")).toHaveValue("4");
    await user.selectOptions(within(dialog).getByLabelText("Target"), "nas-a (nas-client)");
    expect(dialog).toHaveTextContent("nas-a is on host nas-client, these were measured on old-client");
    await user.click(within(dialog).getByRole("checkbox", { name: /Every job of old-client \(5 imports\)/ }));
    await user.click(within(dialog).getByRole("button", { name: "File 5 imports" }));

    expect(await within(dialog).findByRole("status")).toHaveTextContent("Filed 5 imports under nas-a.");
    expect(dialog).toHaveTextContent("now count there");
    expect(api.callsTo("POST /api/v1/results/file")[0]!.body).toEqual({ target_id: 3, host_name: "old-client" });
  });

  it("shows viewers the imports without a way to file them", async () => {
    installFakeApi({
      ...shellRoutes({ role: "viewer" }),
      "GET /api/v1/targets": { body: page([makeTarget()]) },
      "GET /api/v1/regressions": { body: { items: [], total: 0, unacknowledged_regressions: 0 } },
      "GET /api/v1/results/unfiled": { body: { items: [makeGroup()], total: 1, results: 3 } },
    });
    renderApp("/history");
    const table = await screen.findByRole("table", { name: "Imports without a target, by host name and job" });
    expect(within(table).getByRole("row", { name: /randread-4k/ })).toHaveTextContent("3");
    expect(within(table).queryByRole("button")).toBeNull();
  });
});
