import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Schema } from "../../../lib/api/types";
import { installFakeApi, type FakeRequest } from "../../../test/fake-api";
import { makePlan, makeRun, makeTarget, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

function routes() {
  return {
    ...shellRoutes(),
    "GET /api/v1/plans": { body: page([makePlan({ version: 2 })]) },
    "GET /api/v1/presets": { body: page([]) },
    "GET /api/v1/targets": { body: page([makeTarget()]) },
    "POST /api/v1/fio/validate-jobs": (request: FakeRequest) => ({ body: request.body as Schema<"JobsOut"> }),
  };
}

describe("a saved plan's actions", () => {
  it("runs the plan now on a chosen target with a label and opens the run", async () => {
    const api = installFakeApi({
      ...routes(),
      "POST /api/v1/runs": { status: 201, body: makeRun({ id: 42 }) },
      "GET /api/v1/runs/42": { body: makeRun({ id: 42 }) },
    });
    const { user } = renderApp("/plans");
    const row = await screen.findByRole("row", { name: /4k random read/ }, { timeout: 5_000 });
    await user.click(within(row).getByRole("button", { name: "Run 4k random read now" }));
    const form = within(row).getByRole("form", { name: "Run 4k random read" });
    await user.click(within(form).getByRole("button", { name: "Start run of v2" }));
    expect(within(form).getByLabelText("Target")).toHaveAccessibleDescription("Choose a target.");
    await user.selectOptions(within(form).getByLabelText("Target"), "netapp-vol1 (nfs-client-01:/mnt/netapp/bench)");
    await user.type(within(form).getByLabelText(/Run label/), "nconnect=8");
    await user.click(within(form).getByRole("button", { name: "Start run of v2" }));

    expect(await screen.findByRole("heading", { name: "Run #42", level: 1 }, { timeout: 8_000 })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/runs")[0]?.body).toEqual({ target_id: 3, plan_id: 5, label: "nconnect=8" });
  }, 20_000);

  it("saves edited jobs as a new version, duplicates, and deletes only once confirmed", async () => {
    const api = installFakeApi({
      ...routes(),
      "PATCH /api/v1/plans/5": (request: FakeRequest) => ({ body: makePlan({ ...(request.body as object), version: 3 }) }),
      "POST /api/v1/plans/5/duplicate": { status: 201, body: makePlan({ id: 6, name: "4k random read (copy)" }) },
      "DELETE /api/v1/plans/5": { status: 204, body: undefined as never },
    });
    const { user } = renderApp("/plans");
    const row = await screen.findByRole("row", { name: /4k random read/ }, { timeout: 5_000 });

    await user.click(within(row).getByRole("button", { name: "Edit 4k random read" }));
    const edit = within(row).getByRole("form", { name: "Edit 4k random read" });
    expect(edit).toHaveTextContent("Changing the jobs saves version 3");
    const iodepth = within(edit).getByLabelText("iodepth");
    await user.clear(iodepth);
    await user.type(iodepth, "64");
    await user.click(within(edit).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(api.callsTo("PATCH /api/v1/plans/5")).toHaveLength(1));
    const body = api.callsTo("PATCH /api/v1/plans/5")[0]?.body as { jobs: { iodepth: unknown }[]; name?: string };
    expect(body.jobs[0]?.iodepth).toBe(64);
    expect(body.name).toBeUndefined();

    await user.click(within(row).getByRole("button", { name: "Duplicate 4k random read" }));
    expect(await within(row).findByText("Saved as 4k random read (copy).")).toBeInTheDocument();

    await user.click(within(row).getByRole("button", { name: "Delete 4k random read" }));
    expect(api.callsTo("DELETE /api/v1/plans/5")).toHaveLength(0);
    const confirm = within(row).getByRole("group", { name: "Delete plan 4k random read?" });
    expect(confirm).toHaveTextContent("Its runs and their results stay");
    await user.click(within(confirm).getByRole("button", { name: "Delete plan" }));
    await waitFor(() => expect(api.callsTo("DELETE /api/v1/plans/5")).toHaveLength(1));
  }, 20_000);
});
