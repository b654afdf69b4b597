import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Role } from "../../../lib/api/types";
import { fakeRoutes, installFakeApi } from "../../../test/fake-api";
import { makeInvitation, makeMember, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

const ada = makeMember({ user_id: 1, email: "ada@example.com", role: "owner" });
const bob = makeMember({ user_id: 2, email: "bob@example.com", role: "member" });

function routes(role: Role = "owner") {
  return fakeRoutes({
    ...shellRoutes({ role }),
    "GET /api/v1/teams/current/members": { body: page([ada, bob]) },
    "GET /api/v1/teams/current/retention": { body: { raw_output_days: null, series_days: 30 } },
    "GET /api/v1/teams/current/invitations": {
      body: page([
        makeInvitation({ id: 9, email: "carol@example.com", role: "viewer" }),
        makeInvitation({ id: 8, email: null, accepted_at: "2025-03-02T10:00:00Z" }),
        makeInvitation({ id: 7, email: "old@example.com", expires_at: "2025-01-01T00:00:00Z" }),
        makeInvitation({ id: 6, email: "gone@example.com", revoked_at: "2025-03-01T11:00:00Z" }),
      ]),
    },
  });
}

describe("team page", () => {
  it("lets an owner change a role and shows the server's refusal to leave the team without an owner", async () => {
    const api = installFakeApi({
      ...routes(),
      "PATCH /api/v1/teams/current/members/1": {
        status: 409,
        body: { code: "conflict", message: "a team needs at least one owner: make someone else owner first" },
      },
      "PATCH /api/v1/teams/current/members/2": { body: { ...bob, role: "viewer" } },
    });
    const { user } = renderApp("/team");

    const bobRow = await screen.findByRole("row", { name: /bob@example.com/ });
    api.on("GET /api/v1/teams/current/members", { body: page([ada, makeMember({ ...bob, role: "viewer" })]) });
    await user.selectOptions(within(bobRow).getByRole("combobox", { name: "Role of bob@example.com" }), "viewer");
    await waitFor(() => expect(within(bobRow).getByRole("combobox", { name: "Role of bob@example.com" })).toHaveValue("viewer"));
    expect(api.callsTo("PATCH /api/v1/teams/current/members/2")[0]?.body).toEqual({ role: "viewer" });

    const adaRow = screen.getByRole("row", { name: /ada@example.com \(you\)/ });
    await user.selectOptions(within(adaRow).getByRole("combobox", { name: "Role of ada@example.com" }), "member");
    expect(await screen.findByRole("alert")).toHaveTextContent("a team needs at least one owner");
    expect(within(adaRow).getByRole("combobox", { name: "Role of ada@example.com" })).toHaveValue("owner");
  });

  it("removes a member after asking once more", async () => {
    const api = installFakeApi({ ...routes(), "DELETE /api/v1/teams/current/members/2": { status: 204 } });
    const { user } = renderApp("/team");

    await user.click(await screen.findByRole("button", { name: "Remove bob@example.com" }));
    expect(api.callsTo("DELETE /api/v1/teams/current/members/2")).toHaveLength(0);
    const confirm = screen.getByRole("group", { name: "Confirm removing bob@example.com" });
    api.on("GET /api/v1/teams/current/members", { body: page([ada]) });
    await user.click(within(confirm).getByRole("button", { name: "Remove member" }));

    await waitFor(() => expect(screen.queryByRole("row", { name: /bob@example.com/ })).not.toBeInTheDocument());
    expect(api.callsTo("DELETE /api/v1/teams/current/members/2")).toHaveLength(1);
  });

  it("creates an invitation and shows its full link once", async () => {
    const api = installFakeApi({
      ...routes(),
      "POST /api/v1/teams/current/invitations": {
        status: 201,
        body: { ...makeInvitation({ id: 10, role: "viewer" }), token: "inv_secret", link: "/invite/inv_secret" },
      },
    });
    const { user } = renderApp("/team");

    const form = await screen.findByRole("form", { name: "Invite someone" });
    await user.selectOptions(within(form).getByLabelText("Role"), "viewer");
    await user.clear(within(form).getByLabelText("Expires in (hours)"));
    await user.type(within(form).getByLabelText("Expires in (hours)"), "24");
    await user.click(within(form).getByRole("button", { name: "Create invitation" }));

    const panel = await screen.findByRole("region", { name: "Invitation link" });
    expect(within(panel).getByLabelText("Invitation link")).toHaveValue(`${window.location.origin}/invite/inv_secret`);
    expect(within(panel).getByRole("button", { name: "Copy link" })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/teams/current/invitations")[0]?.body).toEqual({ role: "viewer", expires_in_hours: 24 });

    await user.click(within(panel).getByRole("button", { name: "Done" }));
    expect(screen.queryByDisplayValue(/inv_secret/)).not.toBeInTheDocument();
    expect(screen.getByRole("form", { name: "Invite someone" })).toBeInTheDocument();
  });

  it("lists invitations with their status and revokes a pending one", async () => {
    const api = installFakeApi({ ...routes(), "DELETE /api/v1/teams/current/invitations/9": { status: 204 } });
    const { user } = renderApp("/team");

    const table = await screen.findByRole("table", { name: "Invitations" });
    expect(within(table).getByRole("row", { name: /carol@example.com viewer pending/ })).toBeInTheDocument();
    expect(within(table).getByRole("row", { name: /anyone with link #8 member accepted/ })).toBeInTheDocument();
    expect(within(table).getByRole("row", { name: /old@example.com member expired/ })).toBeInTheDocument();
    expect(within(table).getByRole("row", { name: /gone@example.com member revoked/ })).toBeInTheDocument();
    // Only a pending invitation can be revoked.
    expect(within(table).getAllByRole("button", { name: /Revoke/ })).toHaveLength(1);

    await user.click(within(table).getByRole("button", { name: "Revoke invitation for carol@example.com" }));
    await waitFor(() => expect(api.callsTo("DELETE /api/v1/teams/current/invitations/9")).toHaveLength(1));
  });
});

describe("owner-only controls", () => {
  it("are hidden from a member: no role changes, removals, invitations, tokens, audit or enrollment", async () => {
    const api = installFakeApi({
      ...routes("member"),
      "GET /api/v1/hosts": { body: page([]) },
    });
    const { user } = renderApp("/team");

    const bobRow = await screen.findByRole("row", { name: /bob@example.com/ });
    expect(within(bobRow).getByText("member")).toBeInTheDocument();
    expect(screen.queryByRole("combobox", { name: /Role of/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Invite someone" })).not.toBeInTheDocument();
    expect(screen.queryByRole("table", { name: "Invitations" })).not.toBeInTheDocument();
    const nav = screen.getByRole("navigation", { name: "Main" });
    expect(within(nav).getByRole("link", { name: "Team" })).toBeInTheDocument();
    expect(within(nav).queryByRole("link", { name: "Tokens" })).not.toBeInTheDocument();
    expect(within(nav).queryByRole("link", { name: "Audit" })).not.toBeInTheDocument();

    await user.click(within(nav).getByRole("link", { name: "Hosts" }));
    expect(await screen.findByRole("form", { name: "Add host" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: /Enrollment tokens/ })).not.toBeInTheDocument();
    // Owner-only lists are not even asked for (the server would answer 403).
    expect(api.callsTo("GET /api/v1/teams/current/invitations")).toHaveLength(0);
    expect(api.callsTo("GET /api/v1/enrollment-tokens")).toHaveLength(0);
  });

  it("shows owners the tokens and audit links", async () => {
    installFakeApi(routes("owner"));
    renderApp("/team");

    const nav = await screen.findByRole("navigation", { name: "Main" });
    expect(within(nav).getByRole("link", { name: "Tokens" })).toHaveAttribute("href", "/settings/tokens");
    expect(within(nav).getByRole("link", { name: "Audit" })).toHaveAttribute("href", "/audit");
  });

  it("lets an owner keep raw outputs for a number of days, empty meaning forever", async () => {
    const api = installFakeApi({
      ...routes(),
      "PUT /api/v1/teams/current/retention": { body: { raw_output_days: 90, series_days: null } },
    });
    const { user } = renderApp("/team");

    const raw = await screen.findByRole("spinbutton", { name: /Raw fio outputs, days/ });
    await user.type(raw, "90");
    await user.clear(screen.getByRole("spinbutton", { name: /Per-second series, days/ }));
    await user.click(screen.getByRole("button", { name: "Save retention" }));

    await waitFor(() => expect(api.callsTo("PUT /api/v1/teams/current/retention")).toHaveLength(1));
    expect(api.callsTo("PUT /api/v1/teams/current/retention")[0]?.body).toEqual({ raw_output_days: 90, series_days: null });
  });

  it("shows a member the retention settings without letting them change them", async () => {
    installFakeApi(routes("member"));
    renderApp("/team");
    expect(await screen.findByRole("spinbutton", { name: /Per-second series, days/ })).toHaveValue(30);
    expect(screen.getByRole("spinbutton", { name: /Per-second series, days/ })).toBeDisabled();
    expect(screen.queryByRole("button", { name: "Save retention" })).toBeNull();
  });
});
