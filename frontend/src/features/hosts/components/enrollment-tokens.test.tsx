import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makeEnrollmentToken, makeHost, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

describe("enrollment tokens", () => {
  it("creates a token and shows it once with the command that enrolls a host", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/hosts": { body: page([makeHost()]) },
      "GET /api/v1/enrollment-tokens": { body: page([]) },
      "POST /api/v1/enrollment-tokens": {
        status: 201,
        body: {
          ...makeEnrollmentToken({ id: 3, uses_left: 5 }),
          token: "sbe_enroll",
          command: [
            "apt-get install -y fio python3-venv && python3 -m venv /opt/storbench-worker && …",
            "install -m 600 /dev/null /etc/storbench-token && echo sbe_enroll > /etc/storbench-token",
            "storbench-worker --server http://192.0.2.10:8000 --token-file /etc/storbench-token --allow <DIRECTORY>",
          ].join("\n"),
        },
      },
    });
    const { user } = renderApp("/hosts");

    const form = await screen.findByRole("form", { name: "New enrollment token" });
    await user.type(within(form).getByLabelText(/Token name/), "rack 4");
    const uses = within(form).getByLabelText(/Uses/);
    expect(uses).toHaveValue(1); // one host per token unless the owner says more
    await user.clear(uses);
    await user.type(uses, "5");
    await user.click(within(form).getByRole("button", { name: "Create enrollment token" }));

    const panel = await screen.findByRole("region", { name: "New enrollment token" });
    expect(within(panel).getByLabelText("Enrollment token")).toHaveValue("sbe_enroll");
    // The server's complete command (its real address, the install, the token in a file), as sent.
    const command = within(panel).getByLabelText("Enrollment command");
    expect(command).toHaveTextContent("echo sbe_enroll > /etc/storbench-token");
    expect(command).toHaveTextContent("storbench-worker --server http://192.0.2.10:8000 --token-file");
    expect(within(panel).getByRole("button", { name: "Copy command" })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/enrollment-tokens")[0]?.body).toEqual({
      name: "rack 4",
      expires_in_hours: 24,
      uses: 5,
    });

    await user.click(within(panel).getByRole("button", { name: "Done" }));
    expect(screen.queryByText(/sbe_enroll/)).not.toBeInTheDocument();
  });

  it("lists tokens with uses left and revokes an active one", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/hosts": { body: page([]) },
      "GET /api/v1/enrollment-tokens": {
        body: page([
          makeEnrollmentToken({ id: 2, name: "rack 4", uses_left: 3 }),
          makeEnrollmentToken({ id: 1, name: "lab", uses_left: 0 }),
        ]),
      },
      "DELETE /api/v1/enrollment-tokens/2": { status: 204 },
    });
    const { user } = renderApp("/hosts");

    const table = await screen.findByRole("table", { name: "Enrollment tokens" });
    expect(within(table).getByRole("row", { name: /lab/ })).toHaveTextContent("used up");
    const row = within(table).getByRole("row", { name: /rack 4/ });
    expect(row).toHaveTextContent("active");
    await user.click(within(row).getByRole("button", { name: "Revoke enrollment token rack 4" }));

    await waitFor(() => expect(api.callsTo("DELETE /api/v1/enrollment-tokens/2")).toHaveLength(1));
  });
});
