import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makePlan, makePreset, makeResult, makeRun, makeTarget, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

const SLOW = { timeout: 8000 };

describe("repetitions", () => {
  it("the start form sends how many times to repeat the jobs, and shows the server's reason at the field", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/runs": { body: page([]) },
      "GET /api/v1/targets": { body: page([makeTarget()]) },
      "GET /api/v1/plans": { body: page([makePlan()]) },
      "GET /api/v1/presets": { body: page([makePreset()]) },
      "POST /api/v1/runs": {
        status: 422,
        body: {
          code: "invalid",
          message: "40 repetitions of these jobs would take about 40.0 h",
          errors: [{ field: "repetitions", value: "40", reason: "at most 32 repetitions of these jobs" }],
        },
      },
    });
    const { user } = renderApp("/runs");
    const form = await screen.findByRole("form", { name: "Start run" }, SLOW);
    await within(form).findByRole("option", { name: "4k random read" }, SLOW);
    await within(form).findByRole("option", { name: /netapp-vol1/ }, SLOW);
    await user.selectOptions(within(form).getByLabelText("Target"), "netapp-vol1 (nfs-client-01:/mnt/netapp/bench)");
    await user.selectOptions(within(form).getByLabelText("Plan"), "4k random read");
    await user.clear(within(form).getByLabelText("Repetitions"));
    await user.type(within(form).getByLabelText("Repetitions"), "40");
    await user.click(within(form).getByRole("button", { name: "Start run" }));

    await waitFor(() => expect(api.callsTo("POST /api/v1/runs")).toHaveLength(1), SLOW);
    expect(api.callsTo("POST /api/v1/runs")[0]?.body).toEqual({ target_id: 3, plan_id: 5, repetitions: 40 });
    expect(await within(form).findByText("at most 32 repetitions of these jobs", {}, SLOW)).toBeInTheDocument();
    expect(within(form).getByLabelText("Repetitions")).toHaveAttribute("aria-invalid", "true");
  }, 30_000);

  it("the run page says which repetition each result is", async () => {
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/runs/12": {
        body: makeRun({
          id: 12,
          status: "completed",
          repetitions: 3,
          results: [0, 1, 2].map((k) => makeResult({ id: 30 + k, run_id: 12, repetition: k })),
        }),
      },
    });
    renderApp("/runs/12");
    for (const k of [1, 2, 3]) {
      expect(
        await screen.findByRole("region", { name: new RegExp(`^randread on nfs-client-01 · repetition ${k} of 3`) }, SLOW),
      ).toBeInTheDocument();
    }
  }, 30_000);
});
