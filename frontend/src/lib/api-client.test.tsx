import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ApiErrorAlert } from "../components/ui/api-error-alert";
import { installFakeApi } from "../test/fake-api";
import { page, shellRoutes } from "../test/factories";
import { renderApp } from "../test/render-app";
import { apiRequest, ApiError } from "./api-client";
import { getToken, setToken } from "./auth-token";

describe("apiRequest", () => {
  it("sends the bearer token and turns a 422 into an ApiError whose reasons all render", async () => {
    setToken("secret-token");
    const api = installFakeApi({
      "POST /api/v1/fio/validate": {
        status: 422,
        body: {
          code: "invalid_fio",
          message: "The job file has 2 invalid options.",
          errors: [
            { option: "bs", value: "4q", reason: "not a size" },
            { option: "ioengine", value: "nope", reason: "unknown I/O engine" },
          ],
        },
      },
    });

    const error = await apiRequest("/fio/validate", { method: "POST", json: { text: "x" } }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(api.calls[0]?.headers.Authorization).toBe("Bearer secret-token");
    render(<ApiErrorAlert error={error} />);
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("The job file has 2 invalid options.");
    expect(alert).toHaveTextContent("bs=4q: not a size");
    expect(alert).toHaveTextContent("ioengine=nope: unknown I/O engine");
  });

  it("reports an unreachable server instead of throwing a bare TypeError", async () => {
    installFakeApi({});
    globalThis.fetch = () => Promise.reject(new TypeError("Failed to fetch"));
    await expect(apiRequest("/hosts")).rejects.toMatchObject({ code: "network_error", status: 0 });
  });

  it("drops the token on a 401 and the app goes to the sign-in page", async () => {
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/hosts": { status: 401, body: { code: "unauthorized", message: "Token expired" } },
    });
    renderApp("/hosts");

    expect(await screen.findByRole("heading", { name: "Sign in to storbench" })).toBeInTheDocument();
    expect(getToken()).toBeNull();
  });

  it("keeps the token on other errors and shows them in place", async () => {
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/hosts": { status: 500, body: { code: "internal", message: "Database unavailable" } },
      "GET /api/v1/targets": { body: page([]) },
    });
    renderApp("/hosts");

    expect(await screen.findByRole("alert")).toHaveTextContent("Database unavailable");
    expect(getToken()).toBe("test-token");
  });
});
