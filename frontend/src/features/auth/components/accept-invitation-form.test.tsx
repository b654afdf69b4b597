import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeRoutes, installFakeApi } from "../../../test/fake-api";
import { makeMe, makeSession, page, signedOutRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

const PERF = { id: 2, name: "Perf Lab" };

function dashboardRoutes() {
  return fakeRoutes({
    "GET /api/v1/hosts": { body: page([]) },
    "GET /api/v1/targets": { body: page([]) },
    "GET /api/v1/runs": { body: page([]) },
  });
}

function acceptRoutes() {
  return fakeRoutes({
    ...signedOutRoutes(),
    ...dashboardRoutes(),
    "POST /api/v1/invitations/accept": {
      body: { access_token: "sbu_bearer", token_type: "bearer", expires_at: "2099-01-01T00:00:00Z" },
    },
    "GET /api/v1/auth/me": { body: makeMe({ id: 5, email: "vic@example.com", team: PERF, role: "viewer" }) },
    "POST /api/v1/auth/logout": { status: 204 },
    "POST /api/v1/auth/login": {
      body: makeSession({ id: 5, email: "vic@example.com", team: PERF, role: "viewer", csrf_token: "csrf-vic" }),
    },
  });
}

async function join(user: ReturnType<typeof renderApp>["user"], password = "correct horse battery") {
  await user.type(await screen.findByLabelText("Email"), "vic@example.com");
  await user.type(screen.getByLabelText("Password"), password);
  await user.click(screen.getByRole("button", { name: "Join team" }));
}

describe("invitation acceptance", () => {
  it("joins, trades the bearer token for a cookie session and opens the dashboard", async () => {
    const api = installFakeApi(acceptRoutes());
    const { user } = renderApp("/invite/inv_abcdefghijkl");

    expect(await screen.findByLabelText("Password")).toHaveAccessibleDescription("At least 10 characters.");
    await join(user);

    expect(await screen.findByRole("heading", { name: "Dashboard" })).toBeInTheDocument();
    expect(screen.getByText("vic@example.com")).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Start run" })).not.toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/invitations/accept")[0]?.body).toEqual({
      token: "inv_abcdefghijkl",
      email: "vic@example.com",
      password: "correct horse battery",
    });
    // The bearer token is only used to learn the team and is then revoked; the browser keeps the cookie.
    expect(api.callsTo("POST /api/v1/auth/logout")[0]?.headers.Authorization).toBe("Bearer sbu_bearer");
    expect(api.callsTo("POST /api/v1/auth/login")[0]?.body).toEqual({
      email: "vic@example.com",
      password: "correct horse battery",
    });
    expect(api.callsTo("POST /api/v1/auth/switch-team")).toHaveLength(0);
  });

  it("switches an existing account to the team it just joined", async () => {
    const api = installFakeApi({
      ...acceptRoutes(),
      "POST /api/v1/auth/login": { body: makeSession({ email: "vic@example.com", team: { id: 1, name: "Storage QA" } }) },
      "POST /api/v1/auth/switch-team": { body: makeMe({ email: "vic@example.com", team: PERF, role: "viewer" }) },
    });
    const { user } = renderApp("/invite/inv_abcdefghijkl");

    await join(user);

    expect(await screen.findByRole("button", { name: "Team: Perf Lab" })).toBeInTheDocument();
    const [switchCall] = api.callsTo("POST /api/v1/auth/switch-team");
    expect(switchCall?.body).toEqual({ team_id: 2 });
    expect(switchCall?.headers["X-CSRF-Token"]).toBe("csrf-test-token");
  });

  it("shows the server's message for an invalid, used or expired link", async () => {
    const api = installFakeApi({
      ...acceptRoutes(),
      "POST /api/v1/invitations/accept": {
        status: 422,
        body: {
          code: "validation_error",
          message: "this invitation link is invalid, used or expired: ask a team owner for a new one",
        },
      },
    });
    const { user } = renderApp("/invite/inv_used_already");

    await join(user);

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "this invitation link is invalid, used or expired: ask a team owner for a new one",
    );
    expect(screen.getByRole("button", { name: "Join team" })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/auth/login")).toHaveLength(0);
  });

  it("shows a wrong password for an existing account without leaving the page", async () => {
    installFakeApi({
      ...acceptRoutes(),
      "POST /api/v1/invitations/accept": {
        status: 401,
        body: { code: "unauthorized", message: "incorrect email or password" },
      },
    });
    const { user } = renderApp("/invite/inv_abcdefghijkl");

    await join(user, "not the password");

    expect(await screen.findByRole("alert")).toHaveTextContent("incorrect email or password");
    expect(screen.getByRole("heading", { name: "Join a team on storbench" })).toBeInTheDocument();
  });
});
