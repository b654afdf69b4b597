import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makePlan, makePreset, makeRun, makeTarget, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

function routes() {
  return {
    ...shellRoutes(),
    "GET /api/v1/runs": { body: page([]) },
    "GET /api/v1/targets": { body: page([makeTarget()]) },
    "GET /api/v1/plans": { body: page([makePlan()]) },
    "GET /api/v1/presets": { body: page([makePreset()]) },
    "POST /api/v1/runs": { status: 201, body: makeRun({ id: 42 }) },
    "GET /api/v1/runs/42": { body: makeRun({ id: 42 }) },
  };
}

describe("start run form", () => {
  it("starts a saved plan on a target and opens the run", async () => {
    const api = installFakeApi(routes());
    const { user } = renderApp("/runs");
    const form = await screen.findByRole("form", { name: "Start run" });
    await within(form).findByRole("option", { name: "4k random read" });
    await within(form).findByRole("option", { name: /netapp-vol1/ });

    await user.selectOptions(within(form).getByLabelText("Target"), "netapp-vol1 (nfs-client-01:/mnt/netapp/bench)");
    await user.selectOptions(within(form).getByLabelText("Plan"), "4k random read");
    await user.click(within(form).getByRole("button", { name: "Start run" }));

    expect(await screen.findByRole("heading", { name: "Run #42", level: 1 })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/runs")[0]?.body).toEqual({ target_id: 3, plan_id: 5 });
  });

  it("sends a preset's jobs inline, its global options folded in", async () => {
    const api = installFakeApi(routes());
    const { user } = renderApp("/");
    const form = await screen.findByRole("form", { name: "Start run" });
    await within(form).findByRole("option", { name: "Max IOPS (Azure Files)" });
    await within(form).findByRole("option", { name: /netapp-vol1/ });

    await user.selectOptions(within(form).getByLabelText("Target"), "netapp-vol1 (nfs-client-01:/mnt/netapp/bench)");
    await user.selectOptions(within(form).getByLabelText("Plan"), "Max IOPS (Azure Files)");
    await user.click(within(form).getByRole("button", { name: "Start run" }));

    expect(await screen.findByRole("heading", { name: "Run #42", level: 1 })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/runs")[0]?.body).toEqual({
      target_id: 3,
      jobs: [
        { name: "randread", rw: "randread", bs: 4096, iodepth: 64, ioengine: "libaio", direct: true, runtime: 60, time_based: true },
      ],
    });
  });

  it("asks for a target and a plan instead of sending an empty request", async () => {
    const api = installFakeApi(routes());
    const { user } = renderApp("/runs");
    const form = await screen.findByRole("form", { name: "Start run" });

    await user.click(within(form).getByRole("button", { name: "Start run" }));

    expect(within(form).getByLabelText("Target")).toHaveAccessibleDescription("Choose a target.");
    expect(within(form).getByLabelText("Plan")).toHaveAccessibleDescription("Choose a plan or preset.");
    expect(api.callsTo("POST /api/v1/runs")).toHaveLength(0);
  });
});
