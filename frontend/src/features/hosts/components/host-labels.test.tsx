import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makeHost, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

describe("host labels", () => {
  it("lets a member change a host's labels", async () => {
    const host = makeHost({ id: 2, name: "nfs-client-02", labels: ["rack4"] });
    const api = installFakeApi({
      ...shellRoutes({ role: "member" }),
      "GET /api/v1/hosts": { body: page([host]) },
      "PATCH /api/v1/hosts/2": ({ body }) => ({ body: { ...host, ...(body as object) } }),
    });
    const { user } = renderApp("/hosts");

    const row = await screen.findByRole("row", { name: /nfs-client-02/ });
    expect(within(row).getByRole("list", { name: "Labels of nfs-client-02" })).toHaveTextContent("rack4");
    await user.click(within(row).getByRole("button", { name: "Edit labels of nfs-client-02" }));
    const input = within(row).getByRole("textbox", { name: "Labels of nfs-client-02" });
    expect(input).toHaveValue("rack4");

    await user.clear(input);
    await user.type(input, "rack4, nfs-client rack4");
    api.on("GET /api/v1/hosts", { body: page([{ ...host, labels: ["nfs-client", "rack4"] }]) });
    await user.type(input, "{Enter}");

    await waitFor(() => expect(within(row).queryByRole("textbox")).not.toBeInTheDocument());
    expect(api.callsTo("PATCH /api/v1/hosts/2")[0]?.body).toEqual({ labels: ["rack4", "nfs-client"] });
    expect(api.callsTo("PATCH /api/v1/hosts/2")[0]?.headers["X-CSRF-Token"]).toBe("csrf-test-token");
    expect(await within(row).findByRole("list", { name: "Labels of nfs-client-02" })).toHaveTextContent("nfs-clientrack4");
  });

  it("says which label the server would refuse before sending", async () => {
    const api = installFakeApi({
      ...shellRoutes({ role: "owner" }),
      "GET /api/v1/hosts": { body: page([makeHost()]) },
      "GET /api/v1/enrollment-tokens": { body: page([]) },
    });
    const { user } = renderApp("/hosts");

    await user.click(await screen.findByRole("button", { name: "Edit labels of nfs-client-01" }));
    const input = screen.getByRole("textbox", { name: "Labels of nfs-client-01" });
    await user.type(input, "-bad, ok");
    await user.click(screen.getByRole("button", { name: "Save labels" }));

    expect(input).toBeInvalid();
    expect(input).toHaveAccessibleDescription(/"-bad": use letters, digits/);
    expect(api.callsTo("PATCH /api/v1/hosts/1")).toHaveLength(0);
  });

  it("shows viewers the labels without a way to change them", async () => {
    installFakeApi({
      ...shellRoutes({ role: "viewer" }),
      "GET /api/v1/hosts": { body: page([makeHost({ labels: ["rack4", "nfs"] })]) },
    });
    renderApp("/hosts");

    expect(await screen.findByRole("list", { name: "Labels of nfs-client-01" })).toHaveTextContent("rack4nfs");
    expect(screen.queryByRole("button", { name: /Edit labels/ })).not.toBeInTheDocument();
  });
});
