import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi, sequence } from "../../../test/fake-api";
import { makeAggregate, makeAssignment, makeResult, makeRun, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

const started = new Date(Date.now() - 5_000).toISOString();

describe("run detail", () => {
  it("follows a run from running to completed and shows its figures", async () => {
    const running = makeRun({ id: 7, status: "running", started_at: started });
    const completed = makeRun({
      id: 7,
      status: "completed",
      started_at: started,
      finished_at: new Date().toISOString(),
      results: [makeResult()],
    });
    const api = installFakeApi({ ...shellRoutes(), "GET /api/v1/runs/7": sequence({ body: running }, { body: completed }) });
    renderApp("/runs/7");

    expect(await screen.findByRole("status")).toHaveTextContent("running");
    expect(screen.getByRole("heading", { name: "Run #7", level: 1 })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Cancel run" })).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "fio jobs of run #7" })).toHaveTextContent("bs=4k");

    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("completed"), { timeout: 3_000 });
    expect(screen.queryByRole("button", { name: "Cancel run" })).not.toBeInTheDocument();

    const results = screen.getByRole("region", { name: "Results" });
    const table = within(results).getByRole("table", { name: "Figures for randread on nfs-client-01" });
    const row = within(table).getByRole("row", { name: /^read/ });
    expect(within(row).getByText("15.3k")).toBeInTheDocument();
    expect(within(row).getByText("59.6 MiB/s")).toBeInTheDocument();
    expect(within(row).getByText("536 µs")).toBeInTheDocument();
    expect(within(row).getByText("1.22 ms")).toBeInTheDocument();
    expect(within(results).getByText("12.5%")).toBeInTheDocument();
    expect(within(results).getByText("30.3%")).toBeInTheDocument();
    expect(within(results).getByText("412,345")).toBeInTheDocument();
    expect(within(results).getByRole("figure", { name: "Latency percentiles" })).toBeInTheDocument();

    // A terminal run is final: polling stops.
    const polls = api.callsTo("GET /api/v1/runs/7").length;
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(api.callsTo("GET /api/v1/runs/7")).toHaveLength(polls);
  });

  it("cancels a queued run and shows the failure text of a failed one", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/runs/8": { body: makeRun({ id: 8, status: "queued" }) },
      "POST /api/v1/runs/8/cancel": { body: makeRun({ id: 8, status: "cancelled", finished_at: new Date().toISOString() }) },
    });
    const { user } = renderApp("/runs/8");

    await user.click(await screen.findByRole("button", { name: "Cancel run" }));
    // Asked once more before anything is stopped.
    expect(api.callsTo("POST /api/v1/runs/8/cancel")).toHaveLength(0);
    const confirm = screen.getByRole("group", { name: "Cancel run #8?" });
    expect(confirm).toHaveTextContent("what it measured so far is kept, marked partial");
    await user.click(within(confirm).getByRole("button", { name: "Stop the run" }));

    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("cancelled"));
    expect(api.callsTo("POST /api/v1/runs/8/cancel")).toHaveLength(1);
  });

  it("marks results fio did not finish and shows their storage class and label", async () => {
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/runs/10": {
        body: makeRun({
          id: 10,
          status: "failed",
          started_at: started,
          finished_at: started,
          error: "nfs-client-01: the run exceeded its deadline; partial results kept",
          results: [makeResult({ partial: true, storage_class: "NAS capacity", label: "old-filer", cpu: null })],
        }),
      },
    });
    renderApp("/runs/10");

    const result = await screen.findByRole("region", { name: /randread on nfs-client-01/ });
    expect(within(result).getByText(/fio was stopped before the end/)).toHaveTextContent(/^partial: fio was stopped before the end/);
    expect(within(result).getByText("Storage class").nextElementSibling).toHaveTextContent("NAS capacity");
    expect(within(result).getByText("Label").nextElementSibling).toHaveTextContent("old-filer");
    expect(within(result).queryByText("CPU usr")).not.toBeInTheDocument();
    expect(screen.getAllByRole("status")).toHaveLength(1);
  });

  it("shows the error of a failed run", async () => {
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/runs/9": {
        body: makeRun({ id: 9, status: "failed", started_at: started, finished_at: started, error: "fio: io_u error on file /mnt/x: Permission denied" }),
      },
    });
    renderApp("/runs/9");

    const error = await screen.findByRole("region", { name: "Error" });
    expect(error).toHaveTextContent("Permission denied");
    expect(screen.getByText("No results were reported for this run.")).toBeInTheDocument();
  });

  it("shows each host of a synchronized run and what they measured together", async () => {
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/runs/11": {
        body: makeRun({
          id: 11,
          status: "completed",
          started_at: started,
          finished_at: new Date().toISOString(),
          start_at: "2025-03-01T10:00:02Z",
          assignments: [
            makeAssignment({ worker_cpu_percent: 0.31 }),
            makeAssignment({
              host: { id: 2, name: "nfs-client-02" },
              fio_started_at: "2025-03-01T10:00:02.007Z",
              worker_cpu_percent: 0.4567,
            }),
          ],
          results: [makeResult({ id: 11 }), makeResult({ id: 12, host_name: "nfs-client-02" })],
          aggregate: makeAggregate(),
        }),
      },
      "GET /api/v1/runs/11/progress": { body: { run_id: 11, status: "completed", hosts: [] } },
    });
    renderApp("/runs/11");

    const hosts = await screen.findByRole("table", { name: "Hosts" });
    const second = within(hosts).getByRole("row", { name: /nfs-client-02/ });
    expect(second).toHaveTextContent("completed");
    expect(within(second).getByText(/\.007$/)).toBeInTheDocument();
    expect(second).toHaveTextContent("0.46% of a core");
    // The busiest host's worker is what could have disturbed the measurement most.
    expect(screen.getByText("Worker CPU during fio").nextElementSibling).toHaveTextContent("0.46% of a core (busiest host)");
    expect(screen.getByText("Files", { selector: "dt" }).nextElementSibling).toHaveTextContent(/^each host its own$/);

    const results = screen.getByRole("region", { name: "Results" });
    const aggregate = within(results).getByRole("region", { name: "Aggregate of 2 hosts" });
    const row = within(aggregate).getByRole("row", { name: /^read/ });
    expect(within(row).getByText("30.5k")).toBeInTheDocument();
    expect(within(row).getByText("119 MiB/s")).toBeInTheDocument();
    expect(within(row).getByText("1.24 ms")).toBeInTheDocument();
    expect(within(aggregate).getByText("Common window").nextElementSibling).toHaveTextContent("59.2 s");
    expect(within(aggregate).getByText("Start skew").nextElementSibling).toHaveTextContent("3.4 ms");
    expect(aggregate).toHaveTextContent("Method: per-second samples inside the window where every host was running.");
    // Each host's own figures stay beside the total.
    expect(within(results).getByRole("table", { name: "Figures for randread on nfs-client-01" })).toBeInTheDocument();
    expect(within(results).getByRole("table", { name: "Figures for randread on nfs-client-02" })).toBeInTheDocument();
    expect(screen.getAllByRole("status")).toHaveLength(1);
  });

  it("says when the hosts of a run shared one set of files, and says nothing of files for one host", async () => {
    const twoHosts = [makeAssignment(), makeAssignment({ host: { id: 2, name: "nfs-client-02" } })];
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/runs/12": { body: makeRun({ id: 12, status: "queued", shared_files: true, assignments: twoHosts }) },
      "GET /api/v1/runs/13": { body: makeRun({ id: 13, status: "queued", shared_files: true, assignments: [makeAssignment()] }) },
    });
    const { unmount } = renderApp("/runs/12");
    expect((await screen.findByText("Files", { selector: "dt" })).nextElementSibling).toHaveTextContent(/^one set shared by all hosts$/);
    unmount();

    renderApp("/runs/13");
    expect(await screen.findByText("Plan", { selector: "dt" })).toBeInTheDocument();
    expect(screen.queryByText("Files", { selector: "dt" })).not.toBeInTheDocument();
  });
});

describe("a cancelled run", () => {
  it("shows the partial result its host sends after the cancel, without a reload", async () => {
    const now = new Date().toISOString();
    const cancelled = makeRun({ id: 12, status: "cancelled", started_at: now, finished_at: now, results: [] });
    const withResult = { ...cancelled, results: [makeResult({ partial: true })] };
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/runs/12": sequence({ body: cancelled }, { body: withResult }),
    });
    renderApp("/runs/12");

    expect(await screen.findByText("Waiting for what the hosts measured before they stopped…")).toBeInTheDocument();
    expect(await screen.findByText("partial", {}, { timeout: 4_000 })).toBeInTheDocument();
  });
});
