import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { getToken } from "../../../lib/auth-token";
import { installFakeApi } from "../../../test/fake-api";
import { makeHost, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

function dashboardRoutes() {
  return {
    ...shellRoutes(),
    "GET /api/v1/hosts": { body: page([makeHost()]) },
    "GET /api/v1/targets": { body: page([]) },
    "GET /api/v1/runs": { body: page([]) },
    "GET /api/v1/plans": { body: page([]) },
    "GET /api/v1/presets": { body: page([]) },
  };
}

describe("sign in", () => {
  it("posts the credentials as a form, keeps the token and opens the dashboard", async () => {
    const api = installFakeApi({
      ...dashboardRoutes(),
      "POST /api/v1/auth/token": {
        body: { access_token: "tok-123", token_type: "bearer", expires_at: "2099-01-01T00:00:00Z" },
      },
    });
    const { user } = renderApp("/", { signedIn: false });

    await user.type(await screen.findByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "s3cret&more");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    expect(await screen.findByRole("heading", { name: "Dashboard" })).toBeInTheDocument();
    const [call] = api.callsTo("POST /api/v1/auth/token");
    expect(call?.headers["Content-Type"]).toBe("application/x-www-form-urlencoded");
    expect(new URLSearchParams(call?.rawBody)).toEqual(
      new URLSearchParams({ username: "ada@example.com", password: "s3cret&more" }),
    );
    expect(getToken()).toBe("tok-123");
    expect(await screen.findByText("Storage QA")).toBeInTheDocument();
    expect(api.callsTo("GET /api/v1/auth/me")[0]?.headers.Authorization).toBe("Bearer tok-123");
  });

  it("shows the server's message when sign-in fails", async () => {
    installFakeApi({
      "POST /api/v1/auth/token": {
        status: 401,
        body: { code: "invalid_credentials", message: "Incorrect email or password" },
      },
    });
    const { user } = renderApp("/login", { signedIn: false });

    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "wrong");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("Incorrect email or password");
    expect(getToken()).toBeNull();
  });

  it("signs out by forgetting the token", async () => {
    installFakeApi(dashboardRoutes());
    const { user } = renderApp("/");

    await user.click(await screen.findByRole("button", { name: "Sign out" }));

    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
    expect(getToken()).toBeNull();
  });
});
