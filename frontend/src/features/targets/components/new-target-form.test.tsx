import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makeHost, makeTarget, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

describe("new target form", () => {
  it("shows the server's validation error next to the field it concerns", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/hosts": { body: page([makeHost({ id: 1, name: "nfs-client-01" }), makeHost({ id: 2, name: "efs-client" })]) },
      "GET /api/v1/targets": { body: page([]) },
      "GET /api/v1/storage-classes": { body: page([]) },
      "POST /api/v1/targets": {
        status: 422,
        body: {
          code: "validation_error",
          message: "path: path must be absolute (and 1 more)",
          errors: [
            { field: "path", reason: "path must be absolute", value: "mnt/efs" },
            { field: "description", reason: "too long" },
          ],
        },
      },
    });
    const { user } = renderApp("/targets");
    const form = await screen.findByRole("form", { name: "New target" });

    await user.type(within(form).getByLabelText("Name"), "efs-general");
    await within(form).findByRole("option", { name: "efs-client" });
    await user.selectOptions(within(form).getByLabelText("Host"), "efs-client");
    await user.type(within(form).getByLabelText("Path"), "mnt/efs");
    await user.selectOptions(within(form).getByLabelText("Kind"), "Directory");
    await user.type(within(form).getByLabelText(/Storage label/), "efs");
    await user.click(within(form).getByRole("button", { name: "Create target" }));

    const path = within(form).getByLabelText("Path");
    // Said once, next to the field, not repeated in the form's alert.
    expect(await within(form).findByText(/absolute/)).toHaveTextContent("path must be absolute");
    expect(path).toHaveAttribute("aria-invalid", "true");
    expect(path).toHaveAccessibleDescription(expect.stringContaining("path must be absolute"));
    expect(within(form).getByRole("alert")).toHaveTextContent("Check the fields marked below.");
    expect(within(form).getByLabelText(/Description/)).toHaveAccessibleDescription("too long");
    expect(api.callsTo("POST /api/v1/targets")[0]?.body).toEqual({
      name: "efs-general",
      host_id: 2,
      path: "mnt/efs",
      kind: "directory",
      storage_class: "efs",
    });
  });

  it("lists the new target once the server accepts it", async () => {
    const created = makeTarget({ id: 9, name: "efs-general", host_name: "nfs-client-01", path: "/mnt/efs" });
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/hosts": { body: page([makeHost()]) },
      "GET /api/v1/targets": { body: page([]) },
      "GET /api/v1/storage-classes": { body: page([]) },
      "POST /api/v1/targets": { status: 201, body: created },
    });
    const { user } = renderApp("/targets");
    const form = await screen.findByRole("form", { name: "New target" });
    await within(form).findByRole("option", { name: "nfs-client-01" });

    api.on("GET /api/v1/targets", { body: page([created]) });
    await user.type(within(form).getByLabelText("Name"), "efs-general");
    await user.selectOptions(within(form).getByLabelText("Host"), "nfs-client-01");
    await user.type(within(form).getByLabelText("Path"), "/mnt/efs");
    await user.click(within(form).getByRole("button", { name: "Create target" }));

    expect(await screen.findByRole("rowheader", { name: "efs-general" })).toBeInTheDocument();
  });
});
