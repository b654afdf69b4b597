import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Me } from "../../../lib/api/types";
import type { FakeRequest } from "../../../test/fake-api";
import { installFakeApi } from "../../../test/fake-api";
import { makeApiToken, makeHost, makeMe, makeTeamMembership, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

const QA = { id: 1, name: "Storage QA" };
const PERF = { id: 2, name: "Perf Lab" };

/** A server with two teams: what it answers depends on the team the session acts in. */
function twoTeams() {
  let current = QA;
  const meIn = (team: typeof QA): Me => makeMe({ team, role: team === QA ? "owner" : "member" });
  const api = installFakeApi({
    ...shellRoutes(),
    "GET /api/v1/teams": () => ({
      body: page([
        makeTeamMembership({ ...QA, role: "owner", current: current === QA }),
        makeTeamMembership({ ...PERF, role: "member", current: current === PERF }),
      ]),
    }),
    "GET /api/v1/hosts": () => ({
      body: page([makeHost({ name: current === QA ? "qa-nfs-client" : "perf-nvme-box" })]),
    }),
    "GET /api/v1/enrollment-tokens": { body: page([]) },
    "POST /api/v1/auth/switch-team": (request: FakeRequest) => {
      current = (request.body as { team_id: number }).team_id === PERF.id ? PERF : QA;
      return { body: meIn(current) };
    },
  });
  return api;
}

describe("team menu", () => {
  it("switches team and refetches everything: nothing of the previous team stays", async () => {
    const api = twoTeams();
    const { user } = renderApp("/hosts");
    expect(await screen.findByRole("row", { name: /qa-nfs-client/ })).toBeInTheDocument();
    expect(screen.getByRole("region", { name: /Enrollment tokens/ })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Team: Storage QA" }));
    const teams = await screen.findByRole("list", { name: "Your teams" });
    expect(within(teams).getByText("(current)")).toBeInTheDocument();
    await user.click(within(teams).getByRole("button", { name: "Switch to Perf Lab" }));

    expect(await screen.findByRole("row", { name: /perf-nvme-box/ })).toBeInTheDocument();
    expect(screen.queryByRole("row", { name: /qa-nfs-client/ })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Team: Perf Lab" })).toHaveAttribute("aria-expanded", "false");
    // The role is the one in the new team: a member sees no owner-only section.
    expect(screen.getByText("member")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: /Enrollment tokens/ })).not.toBeInTheDocument();
    const [switchCall] = api.callsTo("POST /api/v1/auth/switch-team");
    expect(switchCall?.body).toEqual({ team_id: 2 });
    expect(switchCall?.headers["X-CSRF-Token"]).toBe("csrf-test-token");
    expect(api.callsTo("GET /api/v1/hosts").length).toBeGreaterThanOrEqual(2);
  });

  it("creates a new team and switches to it", async () => {
    const api = twoTeams();
    api.on("POST /api/v1/teams", { status: 201, body: makeTeamMembership({ id: 3, name: "Archive", current: false }) });
    api.on("POST /api/v1/auth/switch-team", { body: makeMe({ team: { id: 3, name: "Archive" }, role: "owner" }) });
    const { user } = renderApp("/hosts");

    await user.click(await screen.findByRole("button", { name: "Team: Storage QA" }));
    await user.click(screen.getByRole("button", { name: "New team" }));
    const form = screen.getByRole("form", { name: "New team" });
    await user.type(within(form).getByLabelText("Team name"), "Archive");
    await user.click(within(form).getByRole("button", { name: "Create team" }));

    expect(await screen.findByRole("button", { name: "Team: Archive" })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/teams")[0]?.body).toEqual({ name: "Archive" });
    expect(api.callsTo("POST /api/v1/auth/switch-team")[0]?.body).toEqual({ team_id: 3 });
  });

  it("leaves a secret shown once behind in the team it belongs to", async () => {
    const api = twoTeams();
    api.on("GET /api/v1/tokens", { body: page([]) });
    api.on("POST /api/v1/tokens", { status: 201, body: { ...makeApiToken(), token: "sbt_team_qa" } });
    // An owner in both teams: the token page stays, only its state must go.
    api.on("POST /api/v1/auth/switch-team", { body: makeMe({ team: PERF, role: "owner" }) });
    const { user } = renderApp("/settings/tokens");

    const form = await screen.findByRole("form", { name: "New API token" });
    await user.type(within(form).getByLabelText("Token name"), "nightly");
    await user.click(within(form).getByRole("button", { name: "Create token" }));
    expect(await screen.findByRole("region", { name: "Created token" })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Team: Storage QA" }));
    await user.click(await screen.findByRole("button", { name: "Switch to Perf Lab" }));

    expect(await screen.findByRole("button", { name: "Team: Perf Lab" })).toBeInTheDocument();
    expect(await screen.findByRole("form", { name: "New API token" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Created token" })).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue("sbt_team_qa")).not.toBeInTheDocument();
  });
});
