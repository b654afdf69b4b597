import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makeAuditEvent, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

describe("audit log", () => {
  it("lists events, filters by action and pages through them", async () => {
    const events = Array.from({ length: 50 }, (_, index) =>
      makeAuditEvent({ id: 200 - index, action: index === 0 ? "token.created" : "run.started" }),
    );
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/audit": (request) =>
        request.query.get("action") === "run.started"
          ? { body: page([makeAuditEvent({ id: 99, details: { target: "netapp-vol1", plan: "4k random read" } })], 1) }
          : { body: page(events, 120) },
    });
    const { user } = renderApp("/audit");

    const table = await screen.findByRole("table", { name: "Audit log" });
    expect(within(table).getByRole("row", { name: /ada@example.com token.created/ })).toBeInTheDocument();
    expect(screen.getByText("1–50 of 120")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Older" }));
    await waitFor(() => expect(api.calls.at(-1)?.query.get("offset")).toBe("50"));
    expect(await screen.findByText("51–100 of 120")).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText("Action"), "run.started");
    const row = await screen.findByRole("row", { name: /run.started/ });
    expect(row).toHaveTextContent("run #7");
    expect(row).toHaveTextContent("nfs-client-01");
    expect(row).toHaveTextContent("target=netapp-vol1");
    expect(row).toHaveTextContent("plan=4k random read");
    const last = api.callsTo("GET /api/v1/audit").at(-1);
    expect(last?.query.get("action")).toBe("run.started");
    expect(last?.query.get("offset")).toBe("0");
    expect(screen.queryByRole("navigation", { name: "Audit log pages" })).not.toBeInTheDocument();
  });

  it("is for owners only", async () => {
    const api = installFakeApi(shellRoutes({ role: "viewer" }));
    renderApp("/audit");

    expect(await screen.findByText(/Only team owners/)).toBeInTheDocument();
    expect(api.callsTo("GET /api/v1/audit")).toHaveLength(0);
  });
});
