import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../test/fake-api";
import { makeHost, makePlan, makeRun, makeTarget, page, resultPage, shellRoutes } from "../../test/factories";
import { renderApp } from "../../test/render-app";

function viewerRoutes() {
  return {
    ...shellRoutes({ role: "viewer" }),
    "GET /api/v1/hosts": { body: page([makeHost()]) },
    "GET /api/v1/targets": { body: page([makeTarget()]) },
    "GET /api/v1/runs": { body: page([makeRun({ status: "running" })]) },
    "GET /api/v1/runs/7": { body: makeRun({ status: "running" }) },
    "GET /api/v1/plans": { body: page([makePlan()]) },
    "GET /api/v1/presets": { body: page([]) },
    "GET /api/v1/results": { body: resultPage([]) },
  };
}

describe("a viewer", () => {
  it("reads every page but is offered nothing to start, create or cancel", async () => {
    installFakeApi(viewerRoutes());
    const { user } = renderApp("/");
    const nav = await screen.findByRole("navigation", { name: "Main" });

    expect(await screen.findByRole("heading", { name: "Dashboard" })).toBeInTheDocument();
    expect(screen.getByTitle("Your role in this team")).toHaveTextContent("viewer");
    expect(screen.queryByRole("form", { name: "Start run" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Start run" })).not.toBeInTheDocument();
    expect(screen.getByText(/not start runs/)).toBeInTheDocument();

    await user.click(within(nav).getByRole("link", { name: "Runs" }));
    expect(await screen.findByRole("heading", { name: "All runs" })).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Start run" })).not.toBeInTheDocument();

    await user.click(within(nav).getByRole("link", { name: "Hosts" }));
    // The previous page stays until this one's module loads: wait for this page, then its rows.
    await screen.findByRole("heading", { name: "Hosts", level: 1 });
    expect(await screen.findByRole("row", { name: /nfs-client-01/ })).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Add host" })).not.toBeInTheDocument();

    await user.click(within(nav).getByRole("link", { name: "Targets" }));
    // The previous page stays until this one's module loads: wait for this page, then its rows.
    await screen.findByRole("heading", { name: "Targets", level: 1 });
    expect(await screen.findByRole("row", { name: /netapp-vol1/ })).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "New target" })).not.toBeInTheDocument();

    await user.click(within(nav).getByRole("link", { name: "Plans" }));
    // The previous page stays until this one's module loads: wait for this page, then its rows.
    await screen.findByRole("heading", { name: "Plans", level: 1 });
    expect(await screen.findByRole("row", { name: /4k random read/ })).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "New plan" })).not.toBeInTheDocument();

    await user.click(within(nav).getByRole("link", { name: "Results" }));
    expect(await screen.findByRole("heading", { name: "History" })).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Import fio output" })).not.toBeInTheDocument();
  });

  it("follows a running run without a cancel button", async () => {
    installFakeApi(viewerRoutes());
    renderApp("/runs/7");

    expect(await screen.findByRole("status")).toHaveTextContent("running");
    expect(screen.queryByRole("button", { name: "Cancel run" })).not.toBeInTheDocument();
  });
});
