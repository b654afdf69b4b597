import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makeApiToken, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

const nightly = makeApiToken({ id: 6, name: "nightly regression", last_used_at: "2025-03-01T12:00:00Z" });

describe("API tokens page", () => {
  it("shows a new token once, with the export line and a command-line example", async () => {
    const created = makeApiToken({ id: 7, name: "ci pipeline", role: "viewer" });
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/tokens": { body: page([nightly]) },
      "POST /api/v1/tokens": { status: 201, body: { ...created, token: "sbt_s3cr3t" } },
    });
    const { user } = renderApp("/settings/tokens");

    const form = await screen.findByRole("form", { name: "New API token" });
    api.on("GET /api/v1/tokens", { body: page([created, nightly]) });
    await user.type(within(form).getByLabelText("Token name"), "ci pipeline");
    await user.selectOptions(within(form).getByLabelText("Role"), "viewer");
    await user.clear(within(form).getByLabelText("Expires in (days)"));
    await user.type(within(form).getByLabelText("Expires in (days)"), "30");
    await user.click(within(form).getByRole("button", { name: "Create token" }));

    const panel = await screen.findByRole("region", { name: "Created token" });
    expect(within(panel).getByLabelText("API token")).toHaveValue("sbt_s3cr3t");
    // The pipeline needs to know where the service is as much as the token.
    expect(within(panel).getByLabelText("Environment")).toHaveTextContent(
      `export STORBENCH_URL=${window.location.origin} STORBENCH_TOKEN=sbt_s3cr3t`,
    );
    expect(within(panel).getByLabelText("Command-line example")).toHaveTextContent(
      "storbench run --plan NAME --target NAME --wait",
    );
    expect(api.callsTo("POST /api/v1/tokens")[0]?.body).toEqual({ name: "ci pipeline", role: "viewer", expires_in_days: 30 });
    // The list shows the new token by name only.
    const table = screen.getByRole("table", { name: "API tokens" });
    await within(table).findByRole("row", { name: /ci pipeline viewer/ });
    expect(table).not.toHaveTextContent("sbt_s3cr3t");

    await user.click(within(panel).getByRole("button", { name: "Done" }));
    expect(screen.queryByText(/sbt_s3cr3t/)).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue("sbt_s3cr3t")).not.toBeInTheDocument();
  });

  it("sends no expiry for a token that never expires", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/tokens": { body: page([]) },
      "POST /api/v1/tokens": { status: 201, body: { ...makeApiToken({ expires_at: null }), token: "sbt_x" } },
    });
    const { user } = renderApp("/settings/tokens");

    const form = await screen.findByRole("form", { name: "New API token" });
    await user.type(within(form).getByLabelText("Token name"), "forever");
    await user.clear(within(form).getByLabelText("Expires in (days)"));
    await user.click(within(form).getByRole("button", { name: "Create token" }));

    await screen.findByRole("region", { name: "Created token" });
    expect(api.callsTo("POST /api/v1/tokens")[0]?.body).toEqual({ name: "forever", role: "member", expires_in_days: null });
  });

  it("lists tokens and revokes one after asking", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/tokens": {
        body: page([nightly, makeApiToken({ id: 5, name: "old script", revoked_at: "2025-03-02T08:00:00Z" })]),
      },
      "DELETE /api/v1/tokens/6": { status: 204 },
    });
    const { user } = renderApp("/settings/tokens");

    const row = await screen.findByRole("row", { name: /nightly regression member/ });
    expect(within(row).getByText("active")).toBeInTheDocument();
    expect(screen.getByRole("row", { name: /old script/ })).toHaveTextContent("revoked");
    await user.click(within(row).getByRole("button", { name: "Revoke token nightly regression" }));
    await user.click(within(row).getByRole("button", { name: "Revoke token" }));

    await waitFor(() => expect(api.callsTo("DELETE /api/v1/tokens/6")).toHaveLength(1));
  });

  it("is for owners only: a member is told so and the list is not asked for", async () => {
    const api = installFakeApi(shellRoutes({ role: "member" }));
    renderApp("/settings/tokens");

    expect(await screen.findByText(/Only team owners/)).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "New API token" })).not.toBeInTheDocument();
    expect(api.callsTo("GET /api/v1/tokens")).toHaveLength(0);
  });
});
