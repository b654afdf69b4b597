import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makeExpectedSpec, makeHost, makeStorageClass, makeTarget, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

const gp3 = makeStorageClass({ id: 21, name: "AWS gp3", protocol: "block" });
const efs = makeStorageClass({ id: 22, name: "Amazon EFS General Purpose", protocol: "nfs" });

function routes(targets = [makeTarget()]) {
  return {
    ...shellRoutes(),
    "GET /api/v1/hosts": { body: page([makeHost({ id: 1, name: "nfs-client-01" })]) },
    "GET /api/v1/targets": { body: page(targets) },
    "GET /api/v1/storage-classes": { body: page([gp3, efs]) },
  };
}

describe("a target's storage class", () => {
  it("shows what the picked class promises at the capacity and sends both with the new target", async () => {
    const api = installFakeApi({
      ...routes(),
      "GET /api/v1/storage-classes/21/spec": { body: makeExpectedSpec() },
      "POST /api/v1/targets": (request) => ({ status: 201, body: makeTarget({ id: 9, ...(request.body as object) }) }),
    });
    const { user } = renderApp("/targets");
    const form = await screen.findByRole("form", { name: "New target" });
    const picker = within(form).getByLabelText(/^Storage class/);
    // Labelled by protocol, "none" allowed.
    expect(await within(picker).findByRole("group", { name: "NFS" })).toHaveTextContent("Amazon EFS General Purpose");
    expect(within(picker).getByRole("group", { name: "Block" })).toHaveTextContent("AWS gp3");
    expect(within(picker).getByRole("option", { name: "None" })).toBeInTheDocument();

    await user.selectOptions(picker, "AWS gp3");
    expect(within(form).queryByRole("status", { name: "Expected figures" })).not.toBeInTheDocument();
    await user.type(within(form).getByLabelText(/Provisioned capacity \(GiB\)/), "1000");

    const expected = await within(form).findByRole("status", { name: "Expected figures" });
    expect(expected).toHaveTextContent("Expected: 20,000 IOPS · 300 MB/s (286 MiB/s) · 0.5–2 ms");
    expect(expected).toHaveTextContent("iops: min(3 * capacity_gib, 20000)");
    expect(api.callsTo("GET /api/v1/storage-classes/21/spec").at(-1)?.query.get("capacity_gib")).toBe("1000");

    await user.type(within(form).getByLabelText("Name"), "ebs-data");
    await user.selectOptions(within(form).getByLabelText("Host"), "nfs-client-01");
    await user.type(within(form).getByLabelText("Path"), "/data");
    await user.click(within(form).getByRole("button", { name: "Create target" }));

    await waitFor(() => expect(api.callsTo("POST /api/v1/targets")).toHaveLength(1));
    expect(api.callsTo("POST /api/v1/targets")[0]?.body).toEqual({
      name: "ebs-data",
      host_id: 1,
      path: "/data",
      kind: "directory",
      storage_class_id: 21,
      capacity_gib: 1000,
    });
  });

  it("shows each target's class and capacity, and changes them from the table", async () => {
    const target = makeTarget({ id: 3, name: "ebs-data", storage_class: "AWS gp3", storage_class_id: 21, capacity_gib: 500 });
    const api = installFakeApi({
      ...routes([target]),
      "GET /api/v1/storage-classes/22/spec": { body: makeExpectedSpec({ storage_class_id: 22, latency: null }) },
      "PATCH /api/v1/targets/3": (request) => ({ body: { ...target, ...(request.body as object) } }),
    });
    const { user } = renderApp("/targets");
    const row = await screen.findByRole("row", { name: /ebs-data/ });
    expect(row).toHaveTextContent("AWS gp3");
    expect(row).toHaveTextContent("500 GiB");

    await user.click(within(row).getByRole("button", { name: "Edit class of ebs-data" }));
    const editor = within(row).getByRole("form", { name: "Storage class of ebs-data" });
    const picker = within(editor).getByLabelText(/^Storage class/);
    await within(picker).findByRole("option", { name: "Amazon EFS General Purpose" });
    expect(picker).toHaveValue("21");
    expect(within(editor).getByLabelText(/Provisioned capacity/)).toHaveValue(500);

    await user.selectOptions(picker, "Amazon EFS General Purpose");
    const capacity = within(editor).getByLabelText(/Provisioned capacity/);
    await user.clear(capacity);
    await user.type(capacity, "2048");
    expect(await within(editor).findByRole("status", { name: "Expected figures" })).toHaveTextContent(
      "Expected: 20,000 IOPS · 300 MB/s (286 MiB/s)",
    );
    api.on("GET /api/v1/targets", { body: page([{ ...target, storage_class: efs.name, storage_class_id: 22, capacity_gib: 2048 }]) });
    await user.click(within(editor).getByRole("button", { name: "Save" }));

    await waitFor(() => expect(row).toHaveTextContent("2,048 GiB"));
    expect(api.callsTo("PATCH /api/v1/targets/3")[0]?.body).toEqual({ storage_class_id: 22, capacity_gib: 2048 });
    expect(within(row).queryByRole("form")).not.toBeInTheDocument();
  });
});
