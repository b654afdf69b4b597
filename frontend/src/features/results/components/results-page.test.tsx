import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Schema } from "../../../lib/api/types";
import { installFakeApi, type FakeRequest } from "../../../test/fake-api";
import { makeDirection, makeResult, makeTarget, page, resultPage, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

const measured = makeResult({ id: 21, run_id: 7, label: "netapp-vol1", storage_class: "nfs", created_at: "2025-03-02T09:00:00Z" });
const imported = makeResult({
  id: 22,
  run_id: null,
  target_id: null,
  label: "old-filer",
  storage_class: "NAS capacity",
  host_name: "legacy-client",
  fio_version: "fio-3.28",
  imported: true,
  partial: true,
  job_name: "seqwrite",
  directions: {
    write: makeDirection({
      iops: 812,
      bw_bytes: 851_443_712,
      clat_ns: { ...makeDirection().clat_ns!, percentiles: { "99": 20_316_160 } },
    }),
  },
});

/** What GET /compare/groups answers: one label's 4 KiB random reads, for the figure and grouping asked. */
function groupsOf(request: FakeRequest): Schema<"GroupsOut"> {
  const by = (request.query.get("by") ?? "label") as Schema<"GroupBy">;
  const figure = (request.query.get("figure") ?? "iops") as Schema<"Figure">;
  return {
    by,
    figure,
    direction: "read",
    unit: figure === "iops" ? "IOPS" : "ns",
    higher_is_better: figure === "iops",
    note: "results are kept apart by job shape (rw, bs, iodepth, numjobs)",
    source: "results",
    truncated: false,
    groups: [
      {
        key: "netapp-vol1",
        shape: { rw: "randread", bs: "4096", iodepth: "32", numjobs: "1" },
        n: 1,
        median: 15_300,
        p25: 15_300,
        p75: 15_300,
        min: 15_300,
        max: 15_300,
        result_ids: [21],
        capacity_gib: null,
        per_gib: null,
        price_per_gib_month: null,
        dollars_per_1000_iops: null,
        dollars_per_mbps: null,
      },
    ],
  };
}

function routes() {
  return {
    ...shellRoutes(),
    "GET /api/v1/targets": { body: page([makeTarget({ id: 3, name: "netapp-vol1" }), makeTarget({ id: 4, name: "efs-general", storage_class: "efs" })]) },
    "GET /api/v1/compare/groups": (request: FakeRequest) => ({ body: groupsOf(request) }),
    "GET /api/v1/results": { body: resultPage([measured, imported]) },
  };
}

/** The page's history requests (the chart asks for up to 1000 at once). */
function historyQueries(api: ReturnType<typeof installFakeApi>) {
  return api.callsTo("GET /api/v1/results").filter((call) => call.query.get("limit") === "50").map((call) => call.query);
}

describe("results page", () => {
  it("lists measured and imported results with their figures, badges and run links", async () => {
    installFakeApi(routes());
    renderApp("/results");

    const table = await screen.findByRole("table", { name: "Result history" });
    const nas = within(table).getByRole("row", { name: /nfs-client-01/ });
    expect(within(nas).getByRole("rowheader")).toHaveTextContent("netapp-vol1");
    expect(within(nas).getByText("15.3k")).toBeInTheDocument();
    expect(within(nas).getByText("59.6 MiB/s")).toBeInTheDocument();
    expect(within(nas).getByText("536 µs")).toBeInTheDocument();
    expect(within(nas).getByText("1.22 ms")).toBeInTheDocument();
    expect(within(nas).getByRole("link", { name: "Run #7" })).toHaveAttribute("href", "/runs/7");
    expect(within(nas).queryByText("imported")).not.toBeInTheDocument();

    const old = within(table).getByRole("row", { name: /legacy-client/ });
    expect(old).toHaveTextContent("NAS capacity");
    expect(old).toHaveTextContent("seqwrite");
    expect(old).toHaveTextContent("write");
    expect(within(old).getByText("812")).toBeInTheDocument();
    expect(within(old).getByText("812 MiB/s")).toBeInTheDocument();
    expect(within(old).getByText("20.3 ms")).toBeInTheDocument();
    expect(within(old).getByText("fio-3.28")).toBeInTheDocument();
    expect(within(old).getByText("imported")).toBeInTheDocument();
    expect(within(old).getByText("partial")).toBeInTheDocument();
    expect(within(old).queryByRole("link", { name: /^Run #/ })).not.toBeInTheDocument();

    expect(screen.getByRole("link", { name: "Results" })).toHaveClass("active");
  });

  it("closes a row's Actions menu on a click outside it and on Escape", async () => {
    installFakeApi(routes());
    renderApp("/results");
    const user = userEvent.setup();

    const table = await screen.findByRole("table", { name: "Result history" });
    const button = within(table).getByLabelText("Actions for result 21");
    const menu = button.closest("details")!;
    await user.click(button);
    expect(menu.open).toBe(true);
    // A click inside the menu leaves it open; one outside closes it.
    await user.click(within(menu).getByText("Storage class"));
    expect(menu.open).toBe(true);
    await user.click(screen.getByRole("heading", { level: 1 }));
    await waitFor(() => expect(menu.open).toBe(false));

    await user.click(button);
    expect(menu.open).toBe(true);
    await user.keyboard("{Escape}");
    await waitFor(() => expect(menu.open).toBe(false));
    expect(button).toHaveFocus();
  });

  it("compares the filtered results grouped by label, never averaging different jobs", async () => {
    const api = installFakeApi(routes());
    const { user } = renderApp("/results?storage_class=efs");

    const chart = await screen.findByRole("figure", { name: "Comparison" }, { timeout: 8_000 });
    expect(chart).toHaveTextContent("Median IOPS (read) per label, one category per job shape");
    // jsdom has no layout, so Recharts draws nothing here: the bars' data is tested with the compare feature.
    expect(api.callsTo("GET /api/v1/compare/groups")[0]?.query.get("storage_class")).toBe("efs");
    await user.selectOptions(screen.getByLabelText("Group by"), "storage_class");
    await user.selectOptions(screen.getByLabelText("Figure"), "clat_p99_ns");
    await waitFor(() => expect(screen.getByRole("figure", { name: "Comparison" })).toHaveTextContent("Median p99 completion latency (read) per storage class"), {
      timeout: 8_000,
    });
  });

  it("reads its filters from the URL and sends them to the server", async () => {
    const api = installFakeApi(routes());
    renderApp("/results?origin=imported&target_id=4&storage_class=efs");

    const filters = await screen.findByRole("search", { name: "Result filters" });
    await within(filters).findByRole("option", { name: "efs-general" });
    expect(within(filters).getByLabelText("Origin")).toHaveValue("imported");
    expect(within(filters).getByLabelText("Target")).toHaveValue("4");
    expect(within(filters).getByLabelText("Storage class")).toHaveValue("efs");
    const [query] = historyQueries(api);
    expect(query?.get("imported")).toBe("true");
    expect(query?.get("target_id")).toBe("4");
    expect(query?.get("storage_class")).toBe("efs");
  });

  it("filters by origin, target and typed storage class, starting again from the newest", async () => {
    const api = installFakeApi({ ...routes(), "GET /api/v1/results": { body: resultPage([measured], { total: 120, nextCursor: "c2" }) } });
    const { user } = renderApp("/results");
    const filters = await screen.findByRole("search", { name: "Result filters" });
    await within(filters).findByRole("option", { name: "efs-general" });

    await user.click(await screen.findByRole("button", { name: "Older" }));
    await waitFor(() => expect(historyQueries(api).at(-1)?.get("cursor")).toBe("c2"));

    await user.selectOptions(within(filters).getByLabelText("Origin"), "Measured by runs");
    await waitFor(() => expect(historyQueries(api).at(-1)?.get("imported")).toBe("false"));
    expect(historyQueries(api).at(-1)?.has("cursor")).toBe(false);

    await user.selectOptions(within(filters).getByLabelText("Target"), "efs-general");
    await waitFor(() => expect(historyQueries(api).at(-1)?.get("target_id")).toBe("4"));

    await user.type(within(filters).getByLabelText("Storage class"), "efs");
    await waitFor(() => expect(historyQueries(api).at(-1)?.get("storage_class")).toBe("efs"));
    // Typing is one request once it pauses, not one per keystroke.
    expect(historyQueries(api).filter((query) => query.has("storage_class")).map((q) => q.get("storage_class"))).toEqual(["efs"]);
    expect(historyQueries(api).at(-1)?.get("imported")).toBe("false");

    await user.selectOptions(within(filters).getByLabelText("Origin"), "All");
    await waitFor(() => expect(historyQueries(api).at(-1)?.has("imported")).toBe(false));
  });

  it("pages by cursor: older pages follow next_cursor, newer ones walk back, the total may be an estimate", async () => {
    const older = makeResult({ id: 5, host_name: "older-client" });
    const api = installFakeApi({
      ...routes(),
      "GET /api/v1/results": (request) =>
        request.query.get("cursor") === "c2"
          ? { body: resultPage([older], { total: 6_300_000, estimate: true }) }
          : { body: resultPage([measured], { total: 6_300_000, nextCursor: "c2", estimate: true }) },
    });
    const { user } = renderApp("/results");

    const pager = await screen.findByRole("navigation", { name: "Result pages" });
    expect(pager).toHaveTextContent("1–1 of about 6,300,000");
    expect(within(pager).getByRole("button", { name: "Newer" })).toBeDisabled();
    await user.click(within(pager).getByRole("button", { name: "Older" }));

    expect(await screen.findByRole("row", { name: /older-client/ })).toBeInTheDocument();
    expect(pager).toHaveTextContent("51–51 of about 6,300,000");
    expect(within(pager).getByRole("button", { name: "Older" })).toBeDisabled();
    expect(historyQueries(api).at(-1)?.get("cursor")).toBe("c2");
    await user.click(within(pager).getByRole("button", { name: "Newer" }));
    expect(await screen.findByRole("row", { name: /nfs-client-01/ })).toBeInTheDocument();
    expect(pager).toHaveTextContent("1–1 of about 6,300,000");
  });

  it("says so when nothing matches", async () => {
    installFakeApi({ ...routes(), "GET /api/v1/results": { body: resultPage([]) } });
    renderApp("/results?storage_class=tape");
    expect(await screen.findByText("No results match these filters.")).toBeInTheDocument();
  });
});
