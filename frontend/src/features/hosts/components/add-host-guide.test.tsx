import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makeHost, makeWorkerSetup as makeSetup, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

describe("adding a host", () => {
  it("says plainly when hosts on other machines cannot join, and what to do", async () => {
    installFakeApi({
      ...shellRoutes({ role: "member" }),
      "GET /api/v1/hosts": { body: page([makeHost()]) },
      "GET /api/v1/worker/setup": {
        body: makeSetup({
          accepts_remote_hosts: false,
          problems: ["This server runs the embedded broker, a folder on this machine."],
          broker: "folder /srv/var/broker on this machine",
        }),
      },
    });
    renderApp("/hosts");

    const notice = await screen.findByRole("status", { name: "Remote hosts" }, { timeout: 5000 });
    expect(notice).toHaveTextContent("This server cannot accept hosts on other machines yet.");
    expect(notice).toHaveTextContent("restart storbench with make up REMOTE=1");
    expect(notice).toHaveTextContent("embedded broker");
  });

  it("shows the server's address, broker and copyable commands when they can", async () => {
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/hosts": { body: page([makeHost()]) },
      "GET /api/v1/enrollment-tokens": { body: page([]) },
      "GET /api/v1/worker/setup": { body: makeSetup() },
    });
    renderApp("/hosts");

    const guide = await screen.findByRole("region", { name: "Add a host" }, { timeout: 5000 });
    expect(await within(guide).findByRole("status", { name: "Remote hosts" }, { timeout: 5000 })).toHaveTextContent(
      "workers reach this server at http://192.0.2.10:8000 and the broker at redis://192.0.2.10:6390/0",
    );
    expect(within(guide).getByLabelText("Install command")).toHaveTextContent("requirements.txt");
    expect(within(guide).getByLabelText("Start command")).toHaveTextContent("--allow <DIRECTORY>");
    expect(within(guide).getByRole("button", { name: "Copy install command" })).toBeInTheDocument();
    expect(within(guide).getByRole("button", { name: "Copy start command" })).toBeInTheDocument();
  });
});
