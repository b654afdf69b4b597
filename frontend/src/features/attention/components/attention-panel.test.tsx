import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Schema } from "../../../lib/api/types";
import { installFakeApi } from "../../../test/fake-api";
import { makeHost, makeRun, makeTarget, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

const AT = "2026-11-27T08:00:00Z";

function attention(items: Schema<"AttentionItem">[], truncated = false): Schema<"AttentionOut"> {
  return { items, since: "2026-11-20T08:00:00Z", limit: 10, truncated };
}

function dashboardRoutes(answer: Schema<"AttentionOut">) {
  return {
    ...shellRoutes(),
    "GET /api/v1/attention": { body: answer },
    "GET /api/v1/hosts": { body: page([makeHost()]) },
    "GET /api/v1/targets": { body: page([makeTarget()]) },
    "GET /api/v1/runs": { body: page([makeRun({ status: "completed" })]) },
    "GET /api/v1/plans": { body: page([]) },
    "GET /api/v1/presets": { body: page([]) },
  };
}

describe("the dashboard's Needs attention panel", () => {
  it("lists each item in a sentence, with its kind in words and a link to the page that resolves it", async () => {
    installFakeApi(
      dashboardRoutes(
        attention(
          [
            { kind: "regression", id: 4, sentence: "IOPS of randread (read) on nas-a went from 10,000 to 7,000 (-30%): a regression nobody has acknowledged", link: "/regressions", at: AT },
            { kind: "failed_run", id: 12, sentence: "Run 12 (plan nightly on nas-a) failed: fio exited 1", link: "/runs/12", at: AT },
            { kind: "host_revoked", id: 3, sentence: "Host 'stolen' was revoked: an owner can replace it with an enrollment token", link: "/hosts", at: AT },
            { kind: "below_spec", id: 31, sentence: "randread on ebs-a is below its spec: read iops 62% of 20,000 IOPS", link: "/results/31", at: AT },
          ],
          true,
        ),
      ),
    );
    renderApp("/");

    const panel = await screen.findByRole("region", { name: "Needs attention" });
    const items = await within(panel).findAllByRole("listitem");
    expect(items).toHaveLength(4);
    expect(items[0]).toHaveTextContent("regression");
    expect(items[0]).toHaveTextContent("went from 10,000 to 7,000 (-30%)");
    expect(within(items[0]!).getByRole("link", { name: /^Review/ })).toHaveAttribute("href", "/regressions");
    expect(within(items[1]!).getByRole("link", { name: /^Open the run\W+Run 12/ })).toHaveAttribute("href", "/runs/12");
    expect(items[2]).toHaveTextContent("host revoked");
    expect(within(items[2]!).getByRole("link", { name: /^Open hosts\W+Host 'stolen'/ })).toHaveAttribute("href", "/hosts");
    expect(within(items[3]!).getByRole("link", { name: /^Open the result/ })).toHaveAttribute("href", "/results/31");
    expect(panel).toHaveTextContent("Only the 10 newest of each kind are listed.");
  });

  it("says all is well when nothing needs attention", async () => {
    installFakeApi(dashboardRoutes(attention([])));
    renderApp("/");

    const panel = await screen.findByRole("region", { name: "Needs attention" });
    expect(await within(panel).findByText("all is well")).toBeInTheDocument();
    expect(panel).toHaveTextContent("No unacknowledged regressions");
    expect(within(panel).queryByRole("list")).not.toBeInTheDocument();
  });

  it("counts a revoked host as not online", async () => {
    installFakeApi({
      ...dashboardRoutes(attention([])),
      "GET /api/v1/hosts": { body: page([makeHost({ id: 1 }), makeHost({ id: 2, name: "stolen", status: "revoked" })]) },
    });
    renderApp("/");

    const stats = await screen.findByLabelText("Overview");
    expect(await within(stats).findByText("1 / 2")).toBeInTheDocument();
  });
});
