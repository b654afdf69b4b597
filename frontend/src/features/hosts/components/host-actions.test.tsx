import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makeHost, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";
import { hostNameProblem } from "./host-actions";

const routes = {
  "GET /api/v1/enrollment-tokens": { body: page([]) },
};

describe("host actions", () => {
  it("renames a host, and shows the server's 409 when the name is taken", async () => {
    const host = makeHost({ id: 4, name: "old-name" });
    const api = installFakeApi({
      ...shellRoutes({ role: "member" }),
      "GET /api/v1/hosts": { body: page([host]) },
      "PATCH /api/v1/hosts/4": {
        status: 409,
        body: { code: "conflict", message: "a host named 'taken' already exists in this team: choose another name" },
      },
    });
    const { user } = renderApp("/hosts");

    await user.click(await screen.findByRole("button", { name: "Rename old-name" }, { timeout: 5000 }));
    // Members rename; removing and deleting are for owners.
    expect(screen.queryByRole("button", { name: "Remove old-name" })).not.toBeInTheDocument();
    const form = screen.getByRole("form", { name: "Rename old-name" });
    const input = within(form).getByLabelText("New name of old-name");
    await user.clear(input);
    await user.type(input, "two words");
    await user.click(within(form).getByRole("button", { name: "Save name" }));
    expect(within(form).getByText(/Use letters, digits/)).toBeInTheDocument();
    expect(api.callsTo("PATCH /api/v1/hosts/4")).toHaveLength(0);

    await user.clear(input);
    await user.type(input, "taken");
    await user.click(within(form).getByRole("button", { name: "Save name" }));
    expect(await within(form).findByText(/already exists in this team/, undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(api.callsTo("PATCH /api/v1/hosts/4")[0]?.body).toEqual({ name: "taken" });
  });

  it("removes a host only once confirmed", async () => {
    const host = makeHost({ id: 5, name: "old-client" });
    const api = installFakeApi({
      ...shellRoutes(),
      ...routes,
      "GET /api/v1/hosts": { body: page([host]) },
      "POST /api/v1/hosts/5/remove": { status: 204 },
    });
    const { user } = renderApp("/hosts");

    await user.click(await screen.findByRole("button", { name: "Remove old-client" }, { timeout: 5000 }));
    const confirm = screen.getByRole("group", { name: "Confirm removing old-client" });
    expect(confirm).toHaveTextContent("Its runs and results stay.");
    expect(api.callsTo("POST /api/v1/hosts/5/remove")).toHaveLength(0);
    await user.click(within(confirm).getByRole("button", { name: "Remove host" }));
    await waitFor(() => expect(api.callsTo("POST /api/v1/hosts/5/remove")).toHaveLength(1));
  });

  it("offers Delete only for a host that never connected", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      ...routes,
      "GET /api/v1/hosts": {
        body: page([
          makeHost({ id: 6, name: "typo-host", status: "offline", last_seen_at: null }),
          makeHost({ id: 7, name: "busy-host" }),
        ]),
      },
      "DELETE /api/v1/hosts/6": { status: 204 },
    });
    const { user } = renderApp("/hosts");

    await user.click(await screen.findByRole("button", { name: "Delete typo-host" }, { timeout: 5000 }));
    expect(screen.queryByRole("button", { name: "Delete busy-host" })).not.toBeInTheDocument();
    await user.click(
      within(screen.getByRole("group", { name: "Confirm deleting typo-host" })).getByRole("button", {
        name: "Delete host",
      }),
    );
    await waitFor(() => expect(api.callsTo("DELETE /api/v1/hosts/6")).toHaveLength(1));
  });

  it("checks a name as the server would", () => {
    expect(hostNameProblem("nas-client-01")).toBeNull();
    expect(hostNameProblem("")).toBe("Give a name.");
    expect(hostNameProblem("-x")).not.toBeNull();
    expect(hostNameProblem("a".repeat(121))).not.toBeNull();
  });
});
