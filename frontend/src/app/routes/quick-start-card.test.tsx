import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../test/fake-api";
import { makeHost, makeRun, makeTarget, page, shellRoutes } from "../../test/factories";
import { realPresets } from "../../test/fixtures";
import { renderApp } from "../../test/render-app";

function routes({ targets = [makeTarget()], runs = 0 }: { targets?: ReturnType<typeof makeTarget>[]; runs?: number } = {}) {
  return {
    ...shellRoutes(),
    "GET /api/v1/attention": { body: { items: [], since: "2026-11-20T08:00:00Z", limit: 10, truncated: false } },
    "GET /api/v1/hosts": { body: page([makeHost()]) },
    "GET /api/v1/targets": { body: page(targets) },
    "GET /api/v1/runs": { body: page(runs ? [makeRun({ status: "completed" })] : [], runs) },
    "GET /api/v1/plans": { body: page([]) },
    "GET /api/v1/presets": { body: realPresets },
  };
}

describe("a first visit to the dashboard", () => {
  it("points at the quick start and prefills the form with it on the only target, in one click", async () => {
    installFakeApi(routes());
    const { user } = renderApp("/");

    const card = await screen.findByRole("region", { name: "First run" });
    expect(await within(card).findByText("4 KiB random read IOPS")).toBeInTheDocument();
    expect(card).toHaveTextContent("on netapp-vol1");
    await user.click(within(card).getByRole("link", { name: "Prefill the quick start" }));

    // The form opens afresh with the quick start chosen.
    await waitFor(() =>
      expect(within(screen.getByRole("form", { name: "Start run" })).getByRole("combobox", { name: "Plan" })).toHaveValue(
        "preset:randread-4k-iops",
      ),
    );
    const form = screen.getByRole("form", { name: "Start run" });
    expect(within(form).getByRole("combobox", { name: "Target" })).toHaveValue("3");
    expect(within(form).getByRole("button", { name: "Start run" })).toHaveFocus();
  });

  it("asks for a target first when the team has none", async () => {
    installFakeApi(routes({ targets: [] }));
    renderApp("/");

    const card = await screen.findByRole("region", { name: "First run" });
    expect(within(card).getByRole("link", { name: "Add a target" })).toHaveAttribute("href", "/targets");
  });

  it("leaves the target to choose among several", async () => {
    installFakeApi(routes({ targets: [makeTarget(), makeTarget({ id: 4, name: "ebs-a" })] }));
    renderApp("/");

    const card = await screen.findByRole("region", { name: "First run" });
    const link = await within(card).findByRole("link", { name: "Prefill the quick start" });
    expect(link).toHaveAttribute("href", "/?preset=randread-4k-iops");
    expect(card).toHaveTextContent("then choose one of your 2 targets");
  });

  it("is gone once the team has runs", async () => {
    installFakeApi(routes({ runs: 3 }));
    renderApp("/");

    await screen.findByRole("region", { name: "Needs attention" });
    await screen.findByRole("table", { name: "Recent runs" });
    expect(screen.queryByRole("region", { name: "First run" })).not.toBeInTheDocument();
  });
});
