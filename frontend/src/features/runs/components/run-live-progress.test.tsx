import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeRoutes, installFakeApi } from "../../../test/fake-api";
import { makeAssignment, makeProgressEvent, makeProgressSample, makeResult, makeRun, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

const started = new Date(Date.now() - 5_000).toISOString();

/** jsdom lays nothing out: give charts the size a browser would, so Recharts draws them. */
function sizeCharts() {
  vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
    return this.classList.contains("recharts-responsive-container") ? new DOMRect(0, 0, 600, 260) : new DOMRect();
  });
}

function liveRoutes() {
  return fakeRoutes({
    ...shellRoutes(),
    "GET /api/v1/runs/7": { body: makeRun({ id: 7, status: "running", started_at: started }) },
    "GET /api/v1/runs/7/progress": { body: { run_id: 7, status: "running", hosts: [] } },
  });
}

describe("live progress of a run", () => {
  it("draws the samples pushed by the event stream and shows each host's progress", async () => {
    sizeCharts();
    const api = installFakeApi(liveRoutes());
    const { container } = renderApp("/runs/7");

    expect(await screen.findByRole("status")).toHaveTextContent("running");
    const live = screen.getByRole("region", { name: "Live progress" });
    const bar = within(live).getByRole("progressbar", { name: "Progress on nfs-client-01" });
    expect(bar).not.toHaveAttribute("aria-valuenow");
    const chart = within(live).getByRole("figure", { name: "Live throughput" });
    expect(within(chart).getByText("No data to plot.")).toBeInTheDocument();

    await waitFor(() => expect(api.streamsTo("/api/v1/runs/7/events")).toHaveLength(1));
    const stream = api.streamsTo("/api/v1/runs/7/events")[0]!;
    stream.open();
    stream.emit("progress", makeProgressEvent({ id: 1, elapsed_s: 1, percent: 1.7, eta_s: 59 }));
    stream.emit("progress", makeProgressEvent({ id: 2, elapsed_s: 2, percent: 3.3, eta_s: 58 }));

    // The chart library loads lazily: on a busy machine its first drawing can take a while.
    await waitFor(() => expect(chart.querySelectorAll(".recharts-line-dot")).toHaveLength(2), { timeout: 5_000 });
    expect(bar).toHaveAttribute("aria-valuenow", "3.3");
    expect(bar).toHaveAttribute("aria-valuetext", "3.3%, 58s left");
    expect(within(live).getByText("3.3% · ETA 58s · 2s elapsed")).toBeInTheDocument();

    // A reconnected stream replays the run: nothing is drawn twice.
    stream.emit("progress", makeProgressEvent({ id: 1, elapsed_s: 1, percent: 1.7, eta_s: 59 }));
    stream.emit("progress", makeProgressEvent({ id: 3, elapsed_s: 3, percent: 5, eta_s: 57 }));
    await waitFor(() => expect(chart.querySelectorAll(".recharts-line-dot")).toHaveLength(3), { timeout: 5_000 });
    expect(bar).toHaveAttribute("aria-valuenow", "5");
    expect(container.querySelectorAll("[role=status]")).toHaveLength(1);
  });

  it("shows a pushed status at once, polls slowly meanwhile and stops listening when the run ends", async () => {
    const api = installFakeApi({
      ...liveRoutes(),
      "GET /api/v1/runs/7": { body: makeRun({ id: 7, status: "queued" }) },
    });
    renderApp("/runs/7");
    expect(await screen.findByRole("status")).toHaveTextContent("queued");
    await waitFor(() => expect(api.streamsTo("/api/v1/runs/7/events")).toHaveLength(1));
    const stream = api.streamsTo("/api/v1/runs/7/events")[0]!;
    stream.open();
    stream.emit("status", { run_id: 7, status: "queued" });

    // Connected: the run is re-read every 5 s rather than every second.
    const polls = api.callsTo("GET /api/v1/runs/7").length;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(api.callsTo("GET /api/v1/runs/7").length).toBeLessThanOrEqual(polls + 1);

    // Pushed: seen well before the next poll (5 s away).
    api.on("GET /api/v1/runs/7", { body: makeRun({ id: 7, status: "running", started_at: started }) });
    stream.emit("status", { run_id: 7, status: "running" });
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent(/^running$/), { timeout: 500 });
    expect(screen.getByRole("progressbar", { name: "Progress on nfs-client-01" })).toBeInTheDocument();

    api.on("GET /api/v1/runs/7", {
      body: makeRun({ id: 7, status: "completed", started_at: started, finished_at: new Date().toISOString(), results: [makeResult()] }),
    });
    api.on("GET /api/v1/runs/7/progress", {
      body: {
        run_id: 7,
        status: "completed",
        hosts: [
          {
            host_name: "nfs-client-01",
            assignment_id: 1,
            status: "completed",
            samples: [makeProgressSample({ id: 1, elapsed_s: 1 }), makeProgressSample({ id: 2, elapsed_s: 2 })],
          },
        ],
      },
    });
    stream.emit("status", { run_id: 7, status: "completed" });

    expect(stream.closed).toBe(true);
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent(/^completed$/), { timeout: 500 });
    expect(screen.queryByRole("region", { name: "Live progress" })).not.toBeInTheDocument();
    expect(await screen.findByRole("figure", { name: "Per-second throughput" })).toBeInTheDocument();
    expect(await screen.findByRole("figure", { name: "Latency percentiles" })).toBeInTheDocument();
    expect(screen.queryByRole("figure", { name: "Live throughput" })).not.toBeInTheDocument();
  });

  it("closes the stream when the page is left", async () => {
    const api = installFakeApi(liveRoutes());
    const { unmount } = renderApp("/runs/7");
    await screen.findByRole("region", { name: "Live progress" });
    await waitFor(() => expect(api.streamsTo("/api/v1/runs/7/events")).toHaveLength(1));
    const stream = api.streamsTo("/api/v1/runs/7/events")[0]!;
    stream.open();
    expect(stream.closed).toBe(false);

    unmount();

    expect(stream.closed).toBe(true);
  });

  it("draws the history of a run opened mid-way, one bar per host of a multi-host run", async () => {
    sizeCharts();
    installFakeApi({
      ...liveRoutes(),
      "GET /api/v1/runs/7": {
        body: makeRun({
          id: 7,
          status: "running",
          started_at: started,
          assignments: [
            makeAssignment({ status: "running" }),
            makeAssignment({ host: { id: 2, name: "nfs-client-02" }, status: "running" }),
          ],
        }),
      },
      "GET /api/v1/runs/7/progress": {
        body: {
          run_id: 7,
          status: "running",
          hosts: [
            { host_name: "nfs-client-01", assignment_id: 1, status: "running", samples: [makeProgressSample({ id: 1, elapsed_s: 1, percent: 40, eta_s: 36 })] },
            { host_name: "nfs-client-02", assignment_id: 2, status: "running", samples: [makeProgressSample({ id: 2, elapsed_s: 1, percent: 41.5, eta_s: 35 })] },
          ],
        },
      },
    });
    renderApp("/runs/7");

    const second = await screen.findByRole("progressbar", { name: "Progress on nfs-client-02" });
    await waitFor(() => expect(second).toHaveAttribute("aria-valuenow", "41.5"));
    expect(screen.getByRole("progressbar", { name: "Progress on nfs-client-01" })).toHaveAttribute("aria-valuenow", "40");
    const chart = screen.getByRole("figure", { name: "Live throughput" });
    expect(await within(chart).findByText("nfs-client-01 read", {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(within(chart).getByText("nfs-client-02 read")).toBeInTheDocument();
  });
});
