import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "../../../lib/query-client";
import { installFakeApi } from "../../../test/fake-api";
import { makeDirection, makeResult, makeTarget, page, resultPage, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";
import { ResultsSelectionBar } from "./results-selection-bar";

const measured = makeResult({
  id: 21,
  run_id: 7,
  label: "netapp-vol1",
  created_at: "2026-11-23T15:00:00Z",
  measured_at: "2026-11-23T14:59:30Z",
});
const imported = makeResult({
  id: 22,
  run_id: null,
  target_id: null,
  label: "old-filer",
  host_name: "legacy-client",
  imported: true,
  options: {},
  created_at: "2026-11-23T15:01:00Z",
  // fio's own timestamp, years before the upload.
  measured_at: "2016-07-07T09:40:00Z",
  directions: { read: makeDirection() },
});

function routes(role: "owner" | "member" | "viewer" = "owner") {
  return {
    ...shellRoutes({ role }),
    "GET /api/v1/targets": { body: page([makeTarget({ id: 3, name: "netapp-vol1" })]) },
    "GET /api/v1/results": { body: resultPage([measured, imported]) },
  };
}

async function historyTable() {
  return screen.findByRole("table", { name: "Result history" });
}

describe("results controls", () => {
  it("dates each result by when fio measured it, not when it was stored", async () => {
    installFakeApi(routes());
    renderApp("/results");
    const table = await historyTable();
    const old = within(table).getByRole("row", { name: /legacy-client/ });
    const when = within(old).getByText(/^2016-07-07/);
    expect(when.tagName).toBe("TIME");
    expect(when).toHaveAttribute("dateTime", "2016-07-07T09:40:00Z");
    expect(when.getAttribute("title")).toMatch(/^stored 2026-11-23/);
    expect(within(table).getByRole("columnheader", { name: "Measured" })).toBeInTheDocument();
  });

  it("relabels a result in place and sends the new label", async () => {
    const api = installFakeApi({
      ...routes("member"),
      "PATCH /api/v1/results/22": { body: { ...imported, label: "filer before firmware 2.1" } },
    });
    const { user } = renderApp("/results");
    const table = await historyTable();
    await user.click(within(table).getByRole("button", { name: "Relabel result 22" }));
    const field = within(table).getByLabelText("Label of result 22");
    expect(field).toHaveValue("old-filer");
    await user.clear(field);
    api.on("GET /api/v1/results", { body: resultPage([measured, { ...imported, label: "filer before firmware 2.1" }]) });
    await user.type(field, "filer before firmware 2.1{Enter}");
    expect(await within(table).findByText("filer before firmware 2.1")).toBeInTheDocument();
    expect(api.callsTo("PATCH /api/v1/results/22")[0]?.body).toEqual({ label: "filer before firmware 2.1" });
    // Members relabel, only owners delete.
    expect(within(table).queryByRole("button", { name: /^Delete result/ })).not.toBeInTheDocument();
  });

  it("shows the server's reason when a relabel is refused", async () => {
    installFakeApi({
      ...routes(),
      "PATCH /api/v1/results/21": { status: 422, body: { code: "validation_error", message: "label: at most 200 characters" } },
    });
    const { user } = renderApp("/results");
    const table = await historyTable();
    await user.click(within(table).getByRole("button", { name: "Relabel result 21" }));
    await user.type(within(table).getByLabelText("Label of result 21"), "x{Enter}");
    expect(await within(table).findByRole("alert")).toHaveTextContent("Not relabelled: label: at most 200 characters");
  });

  it("deletes a result only once the owner confirms", async () => {
    const api = installFakeApi({ ...routes(), "DELETE /api/v1/results/22": { status: 204 } });
    const { user } = renderApp("/results");
    const table = await historyTable();
    await user.click(within(table).getByRole("button", { name: "Delete result 22" }));
    const confirm = within(table).getByRole("group", { name: "Delete result 22?" });
    expect(confirm).toHaveTextContent("audit log");
    await user.click(within(confirm).getByRole("button", { name: "Cancel" }));
    expect(api.callsTo("DELETE /api/v1/results/22")).toHaveLength(0);

    await user.click(within(table).getByRole("button", { name: "Delete result 22" }));
    api.on("GET /api/v1/results", { body: resultPage([measured]) });
    await user.click(within(table).getByRole("button", { name: "Delete result" }));
    expect(api.callsTo("DELETE /api/v1/results/22")).toHaveLength(1);
    await screen.findByRole("table", { name: "Result history" });
    await expect.poll(() => screen.queryByRole("row", { name: /legacy-client/ })).toBeNull();
  });

  it("offers fio's raw output and the job file for download, and no job file an import lacks", async () => {
    installFakeApi(routes("viewer"));
    renderApp("/results");
    const table = await historyTable();
    expect(within(table).getByRole("link", { name: "Raw fio output of result 21" })).toHaveAttribute("href", "/api/v1/results/21/raw");
    expect(within(table).getByRole("link", { name: "Job file of result 21" })).toHaveAttribute("href", "/api/v1/results/21/job-file");
    expect(within(table).getByRole("link", { name: "Raw fio output of result 22" })).toHaveAttribute("download");
    expect(within(table).queryByRole("link", { name: "Job file of result 22" })).not.toBeInTheDocument();
    // Viewers read and download; they neither relabel nor delete.
    expect(within(table).queryByRole("button", { name: /^Relabel/ })).not.toBeInTheDocument();
    expect(within(table).queryByRole("button", { name: /^Delete/ })).not.toBeInTheDocument();
  });

  it("relabels the ticked results at once", async () => {
    const api = installFakeApi({
      ...routes(),
      "PATCH /api/v1/results": {
        body: { items: [{ ...measured, label: "nconnect=8" }, { ...imported, label: "nconnect=8" }] },
      },
    });
    const { user } = renderApp("/results");
    const table = await historyTable();
    await user.click(within(table).getByRole("checkbox", { name: /Select result 21/ }));
    await user.click(within(table).getByRole("checkbox", { name: /Select result 22/ }));
    const bar = screen.getByRole("region", { name: "Selected results" });
    expect(bar).toHaveTextContent("2 results selected");
    await user.type(within(bar).getByLabelText("Label for the selected"), "nconnect=8");
    await user.click(within(bar).getByRole("button", { name: "Relabel 2" }));
    expect(await within(bar).findByRole("status")).toHaveTextContent("Relabelled 2 results.");
    expect(api.callsTo("PATCH /api/v1/results")[0]?.body).toEqual({ ids: [21, 22], label: "nconnect=8" });
  });
});

describe("import of an output the team already holds", () => {
  it("says it was imported before, when, and which results it is, with fio's dates", async () => {
    installFakeApi({
      ...routes(),
      "POST /api/v1/results/import": {
        status: 200,
        body: {
          source_format: "json",
          fio_version: "fio-2.2.10",
          results: [imported],
          duplicate: true,
          first_stored_at: "2026-11-23T15:01:00Z",
        },
      },
    });
    const { user } = renderApp("/results");
    const form = await screen.findByRole("form", { name: "Import fio output" });
    await user.upload(within(form).getByLabelText("fio output file"), new File(["{}"], "2016.json", { type: "application/json" }));
    await user.click(within(form).getByRole("button", { name: "Import" }));
    const summary = await within(form).findByRole("status");
    expect(summary).toHaveTextContent(/Already imported on 2026-11-23 \d\d:\d\d:\d\d: this exact output is result #22/);
    expect(summary).toHaveTextContent("Nothing was stored again.");
    expect(summary).toHaveTextContent(/measured 2016-07-07/);
    expect(summary).not.toHaveTextContent("Imported 1 result");
  });
});

function Where() {
  const location = useLocation();
  return <p>at {location.pathname + location.search}</p>;
}

describe("selection bar", () => {
  it("compares two or more selected results on the compare page", async () => {
    const user = userEvent.setup();
    const selected: number[] = [21];
    const queryClient = createQueryClient();
    const view = (ids: number[]) => (
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={["/results"]}>
          <Routes>
            <Route path="/results" element={<ResultsSelectionBar selected={ids} canRelabel onClear={() => undefined} />} />
            <Route path="/compare" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    );
    const { rerender } = render(view(selected));
    expect(screen.getByRole("button", { name: "Compare" })).toBeDisabled();
    rerender(view([21, 22, 30]));
    await user.click(screen.getByRole("button", { name: "Compare 3" }));
    expect(await screen.findByText("at /compare?ids=21,22,30")).toBeInTheDocument();
  });
});
