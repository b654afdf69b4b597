import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makeHost, makeTarget, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

const directory = makeTarget({ id: 3, name: "netapp-vol1" });
const device = makeTarget({ id: 8, name: "nvme-scratch", path: "/dev/nvme1n1", kind: "block_device", storage_class: "local-nvme" });

function routes(role: "owner" | "member", targets = [directory, device]) {
  return {
    ...shellRoutes({ role }),
    "GET /api/v1/hosts": { body: page([makeHost()]) },
    "GET /api/v1/targets": { body: page(targets) },
    "GET /api/v1/storage-classes": { body: page([]) },
  };
}

describe("destructive block devices", () => {
  it("lets an owner allow writes to a block device after confirming, and shows the badge", async () => {
    const api = installFakeApi({
      ...routes("owner"),
      "PATCH /api/v1/targets/8": (request) => ({ body: { ...device, ...(request.body as object) } }),
    });
    const { user } = renderApp("/targets");
    const deviceRow = await screen.findByRole("row", { name: /nvme-scratch/ });
    const directoryRow = screen.getByRole("row", { name: /netapp-vol1/ });
    expect(within(directoryRow).queryByRole("checkbox", { name: "Allow destructive writes" })).not.toBeInTheDocument();
    const allow = await within(deviceRow).findByRole("checkbox", { name: "Allow destructive writes" });
    expect(allow).not.toBeChecked();
    expect(within(deviceRow).queryByText("destructive")).not.toBeInTheDocument();

    await user.click(allow);
    // Nothing changes until the owner confirms.
    expect(api.callsTo("PATCH /api/v1/targets/8")).toHaveLength(0);
    const confirm = within(deviceRow).getByRole("group", { name: "Confirm destructive writes on nvme-scratch" });
    expect(confirm).toHaveTextContent("/dev/nvme1n1 will destroy all data on it");

    api.on("GET /api/v1/targets", { body: page([directory, { ...device, destructive: true }]) });
    await user.click(within(confirm).getByRole("button", { name: "Allow writes" }));

    await waitFor(() => expect(within(deviceRow).getByRole("checkbox", { name: "Allow destructive writes" })).toBeChecked());
    expect(api.callsTo("PATCH /api/v1/targets/8")[0]?.body).toEqual({ destructive: true });
    expect(within(deviceRow).getByText("destructive")).toBeInTheDocument();
    expect(within(deviceRow).queryByRole("group")).not.toBeInTheDocument();
  });

  it("takes the permission back at once and shows the server's refusal", async () => {
    const api = installFakeApi({
      ...routes("owner", [{ ...device, destructive: true }]),
      "PATCH /api/v1/targets/8": {
        status: 403,
        body: { code: "forbidden", message: "only team owners may change destructive" },
      },
    });
    const { user } = renderApp("/targets");
    const row = await screen.findByRole("row", { name: /nvme-scratch/ });

    await user.click(within(row).getByRole("checkbox", { name: "Allow destructive writes" }));

    expect(await within(row).findByRole("alert")).toHaveTextContent("only team owners may change destructive");
    expect(api.callsTo("PATCH /api/v1/targets/8")[0]?.body).toEqual({ destructive: false });
  });

  it("shows members the state of each device without the control", async () => {
    installFakeApi(routes("member", [device, { ...device, id: 9, name: "sdb", path: "/dev/sdb", destructive: true }]));
    renderApp("/targets");

    const sdb = await screen.findByRole("row", { name: /sdb/ });
    await screen.findByText("member");
    expect(within(sdb).getByText("destructive")).toBeInTheDocument();
    expect(within(sdb).getByText("allowed")).toBeInTheDocument();
    const nvme = screen.getByRole("row", { name: /nvme-scratch/ });
    expect(within(nvme).getByText(/reads only/)).toBeInTheDocument();
    expect(screen.queryByRole("checkbox", { name: "Allow destructive writes" })).not.toBeInTheDocument();
  });
});
