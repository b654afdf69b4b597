import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makeHost, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

describe("hosts table", () => {
  it("says what machine each worker runs on in words, and what it did not report as a dash", async () => {
    const reported = makeHost({
      id: 2,
      name: "nfs-client-02",
      facts: { cpu_count: 16, memory_bytes: 64 * 1024 ** 3, arch: "x86_64", kernel: "6.1.0-18-amd64" },
    });
    const silent = makeHost({ id: 3, name: "nfs-client-03", facts: {} });
    installFakeApi({
      ...shellRoutes({ role: "viewer" }),
      "GET /api/v1/hosts": { body: page([reported, silent]) },
    });
    renderApp("/hosts");

    const table = await screen.findByRole("table", { name: "Hosts" });
    const machine = within(table).getAllByRole("columnheader").findIndex((cell) => cell.textContent === "Machine");
    // The name is the row's header cell: the Machine column is one place earlier among the data cells.
    const cellOf = (name: string) =>
      within(within(table).getByRole("row", { name: new RegExp(name) })).getAllByRole("cell")[machine - 1];
    expect(cellOf("nfs-client-02")).toHaveTextContent("16 CPUs · 64.0 GiB · x86_64kernel 6.1.0-18-amd64");
    expect(cellOf("nfs-client-03")).toHaveTextContent(/^—$/);
  });
});
