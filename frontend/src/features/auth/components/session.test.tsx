import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeRoutes, installFakeApi } from "../../../test/fake-api";
import { makeHost, makeRun, makeSession, page, shellRoutes, signedOutRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

function dashboardRoutes() {
  return fakeRoutes({
    "GET /api/v1/hosts": { body: page([makeHost()]) },
    "GET /api/v1/targets": { body: page([]) },
    "GET /api/v1/runs": { body: page([]) },
    "GET /api/v1/plans": { body: page([]) },
    "GET /api/v1/presets": { body: page([]) },
  });
}

async function signIn(user: ReturnType<typeof renderApp>["user"], email = "ada@example.com", password = "s3cret&more") {
  await user.type(await screen.findByLabelText("Email"), email);
  await user.type(screen.getByLabelText("Password"), password);
  await user.click(screen.getByRole("button", { name: "Sign in" }));
}

describe("browser session", () => {
  it("restores the session from its cookie on page load, without asking to sign in", async () => {
    const api = installFakeApi({ ...shellRoutes(), ...dashboardRoutes() });
    renderApp("/hosts");

    expect(await screen.findByRole("heading", { name: "Hosts" })).toBeInTheDocument();
    expect(screen.getByText("ada@example.com")).toBeInTheDocument();
    expect(screen.getByText("Storage QA")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Sign in" })).not.toBeInTheDocument();
    const [restore] = api.callsTo("GET /api/v1/auth/status");
    expect(restore?.credentials).toBe("same-origin");
    // The cookie does the authenticating: no bearer token anywhere.
    expect(api.calls.every((call) => call.headers.Authorization === undefined)).toBe(true);
  });

  it("signs in with JSON credentials and opens the page asked for", async () => {
    const api = installFakeApi({
      ...signedOutRoutes(),
      ...dashboardRoutes(),
      "GET /api/v1/runs": { body: page([makeRun({ id: 12, status: "failed" })]) },
      "POST /api/v1/auth/login": { body: makeSession() },
    });
    const { user } = renderApp("/runs?status=failed");

    await signIn(user);

    expect(await screen.findByRole("heading", { name: "Runs" })).toBeInTheDocument();
    expect(screen.getByLabelText("Status filter")).toHaveValue("failed");
    const [call] = api.callsTo("POST /api/v1/auth/login");
    expect(call?.headers["Content-Type"]).toBe("application/json");
    expect(call?.body).toEqual({ email: "ada@example.com", password: "s3cret&more" });
    expect(await screen.findByText("Storage QA")).toBeInTheDocument();
  });

  it("shows the server's message when sign-in fails", async () => {
    installFakeApi({
      ...signedOutRoutes(),
      "POST /api/v1/auth/login": {
        status: 401,
        body: { code: "unauthorized", message: "incorrect email or password" },
      },
    });
    const { user } = renderApp("/login");

    await signIn(user, "ada@example.com", "wrong");

    expect(await screen.findByRole("alert")).toHaveTextContent("incorrect email or password");
    expect(screen.getByRole("button", { name: "Sign in" })).toBeInTheDocument();
  });

  it("says how long to wait after too many attempts", async () => {
    installFakeApi({
      ...signedOutRoutes(),
      "POST /api/v1/auth/login": {
        status: 429,
        body: { code: "rate_limited", message: "too many attempts; try again in 42 s" },
      },
    });
    const { user } = renderApp("/login");

    await signIn(user);

    expect(await screen.findByRole("alert")).toHaveTextContent("too many attempts; try again in 42 s");
  });

  it("signs out through the server with the CSRF token, then asks to sign in", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      ...dashboardRoutes(),
      "POST /api/v1/auth/logout": { status: 204 },
    });
    const { user } = renderApp("/");
    await user.click(await screen.findByRole("button", { name: "Sign out" }));

    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/auth/logout")[0]?.headers["X-CSRF-Token"]).toBe("csrf-test-token");
    expect(screen.queryByText("nfs-client-01")).not.toBeInTheDocument();
  });
});
