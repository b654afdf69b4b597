import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makeEnrollmentToken, makeHost, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

describe("host credentials (owners)", () => {
  it("rotates a host's token after asking, and shows the new one once", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/hosts": { body: page([makeHost({ id: 4, name: "nas-client-1" })]) },
      "GET /api/v1/enrollment-tokens": { body: page([]) },
      "POST /api/v1/hosts/4/rotate-credential": { body: { host_id: 4, worker_token: "sbh_new" } },
    });
    const { user } = renderApp("/hosts");

    await user.click(await screen.findByRole("button", { name: "Rotate the token of nas-client-1" }));
    const confirm = screen.getByRole("group", { name: "Confirm for nas-client-1" });
    expect(confirm).toHaveTextContent("stops working at once");
    expect(api.callsTo("POST /api/v1/hosts/4/rotate-credential")).toHaveLength(0);
    await user.click(within(confirm).getByRole("button", { name: "Rotate token" }));

    const panel = await screen.findByRole("region", { name: "New token for nas-client-1" });
    expect(within(panel).getByLabelText("Worker token of nas-client-1")).toHaveValue("sbh_new");
    expect(within(panel).getByLabelText("Token file command for nas-client-1")).toHaveTextContent(
      "echo 'sbh_new' > /etc/storbench-token",
    );
  });

  it("says why the service cut a host off, next to Replace", async () => {
    const reason =
      "host 'greedy' was cut off: it kept 47.0 MiB in the message broker, more than its budget of 8.0 MiB";
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/hosts": {
        body: page([makeHost({ id: 6, name: "greedy", status: "revoked", revoked_at: "2026-11-27T18:00:00Z", revoked_reason: reason })]),
      },
      "GET /api/v1/enrollment-tokens": { body: page([]) },
    });
    renderApp("/hosts");

    expect(await screen.findByRole("note", { name: "Why greedy was revoked" })).toHaveTextContent(reason);
    expect(screen.getByRole("button", { name: "Replace greedy" })).toBeInTheDocument();
  });

  it("revokes a host only once confirmed, and keeping it changes nothing", async () => {
    const host = makeHost({ id: 5, name: "old-client" });
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/hosts": { body: page([host]) },
      "GET /api/v1/enrollment-tokens": { body: page([]) },
      "POST /api/v1/hosts/5/revoke": { body: { ...host, status: "revoked", revoked_at: new Date().toISOString() } },
    });
    const { user } = renderApp("/hosts");

    await user.click(await screen.findByRole("button", { name: "Revoke old-client" }));
    await user.click(screen.getByRole("button", { name: "Keep" }));
    expect(api.callsTo("POST /api/v1/hosts/5/revoke")).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Revoke old-client" }));
    const confirm = screen.getByRole("group", { name: "Confirm for old-client" });
    expect(confirm).toHaveTextContent("queued or running runs fail");
    await user.click(within(confirm).getByRole("button", { name: "Revoke host" }));
    await waitFor(() => expect(api.callsTo("POST /api/v1/hosts/5/revoke")).toHaveLength(1));
  });

  it("replaces a revoked host with a one-use enrollment token for its name", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/hosts": { body: page([makeHost({ id: 6, name: "lost-client", status: "revoked" })]) },
      "GET /api/v1/enrollment-tokens": { body: page([]) },
      "POST /api/v1/enrollment-tokens": {
        status: 201,
        body: { ...makeEnrollmentToken({ id: 9, uses_left: 1, replaces_host_id: 6 }), token: "sbe_again", command: "storbench-worker --server http://192.0.2.10:8000 --token-file /etc/storbench-token --name lost-client --allow <DIRECTORY>" },
      },
    });
    const { user } = renderApp("/hosts");

    const row = within(await screen.findByRole("table", { name: "Hosts" })).getByRole("row", { name: /lost-client/ });
    expect(row).toHaveTextContent("revoked");
    expect(within(row).queryByRole("button", { name: "Revoke lost-client" })).not.toBeInTheDocument();
    await user.click(within(row).getByRole("button", { name: "Replace lost-client" }));

    const panel = await screen.findByRole("region", { name: "Replacement token for lost-client" });
    expect(within(panel).getByLabelText("Enrollment command for lost-client")).toHaveTextContent(
      "--name lost-client",
    );
    expect(api.callsTo("POST /api/v1/enrollment-tokens")[0]?.body).toMatchObject({ uses: 1, replaces_host_id: 6 });
  });
});
