import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makeHost, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

describe("add host form", () => {
  it("shows the one-time worker token with the command that starts the worker", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/hosts": { body: page([makeHost({ status: "offline", last_seen_at: null, fio_version: null })]) },
      "GET /api/v1/enrollment-tokens": { body: page([]) },
      "POST /api/v1/hosts": { status: 201, body: { ...makeHost({ id: 2, name: "efs-client" }), worker_token: "wt_abc123" } },
    });
    const { user } = renderApp("/hosts");

    expect(await screen.findByRole("cell", { name: "offline" })).toBeInTheDocument();
    const form = screen.getByRole("form", { name: "Add host" });
    await user.type(within(form).getByLabelText("Host name"), "efs-client");
    await user.click(within(form).getByRole("button", { name: "Add host" }));

    const panel = await screen.findByRole("region", { name: "Worker token" });
    expect(within(panel).getByLabelText("Worker token")).toHaveValue("wt_abc123");
    const command = within(panel).getByLabelText("Worker start command");
    expect(command).toHaveTextContent("echo 'wt_abc123' > /etc/storbench-token");
    expect(command).toHaveTextContent(
      /storbench-worker --server http:\/\/\S+ --token-file \/etc\/storbench-token --name efs-client --allow/,
    );
    expect(command).not.toHaveTextContent("--token wt_abc123");
    expect(api.callsTo("POST /api/v1/hosts")[0]?.body).toEqual({ name: "efs-client" });
  });
});
