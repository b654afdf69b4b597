import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ApiErrorAlert } from "../components/ui/api-error-alert";
import { installFakeApi } from "../test/fake-api";
import { makeHost, makeSession, makeWorkerSetup, page, shellRoutes } from "../test/factories";
import { renderApp } from "../test/render-app";
import { apiRequest, ApiError } from "./api-client";
import { setCsrfToken } from "./session";

describe("apiRequest", () => {
  it("sends the CSRF token on changes only, and turns a 422 into an ApiError whose reasons all render", async () => {
    setCsrfToken("csrf-1");
    const api = installFakeApi({
      "GET /api/v1/hosts": { body: page([]) },
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

    await apiRequest("/hosts");
    const error = await apiRequest("/fio/validate", { method: "POST", json: { text: "x" } }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    const [read, change] = api.calls;
    expect(read?.headers["X-CSRF-Token"]).toBeUndefined();
    expect(change?.headers["X-CSRF-Token"]).toBe("csrf-1");
    expect(change?.credentials).toBe("same-origin");
    expect(change?.headers.Authorization).toBeUndefined();
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

  it("echoes the CSRF token of the restored session when the app posts", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/auth/status": { body: { signed_in: true, session: makeSession({ csrf_token: "csrf-from-session" }) } },
      "GET /api/v1/hosts": { body: page([]) },
      "GET /api/v1/enrollment-tokens": { body: page([]) },
      "POST /api/v1/hosts": { status: 201, body: { ...makeHost({ id: 2, name: "efs-client" }), worker_token: "wt_1" } },
    });
    const { user } = renderApp("/hosts");

    const form = await screen.findByRole("form", { name: "Add host" });
    await user.type(within(form).getByLabelText("Host name"), "efs-client");
    await user.click(within(form).getByRole("button", { name: "Add host" }));

    expect(await screen.findByRole("region", { name: "Worker token" })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/hosts")[0]?.headers["X-CSRF-Token"]).toBe("csrf-from-session");
  });

  it("ends the session on a 401 and the app goes to the sign-in page", async () => {
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/hosts": { status: 401, body: { code: "unauthorized", message: "invalid or expired token" } },
    });
    renderApp("/hosts");

    expect(await screen.findByRole("heading", { name: "Sign in to storbench" })).toBeInTheDocument();
    expect(screen.queryByRole("navigation", { name: "Main" })).not.toBeInTheDocument();
  });

  it("keeps the session on other errors and shows them in place", async () => {
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/hosts": { status: 500, body: { code: "internal", message: "Database unavailable" } },
      "GET /api/v1/enrollment-tokens": { body: page([]) },
      "GET /api/v1/worker/setup": { body: makeWorkerSetup() },
    });
    renderApp("/hosts");

    expect(await screen.findByRole("alert")).toHaveTextContent("Database unavailable");
    expect(screen.getByRole("button", { name: "Sign out" })).toBeInTheDocument();
  });
});
