import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

async function fill(user: ReturnType<typeof renderApp>["user"], current: string, next: string, repeat = next) {
  const form = await screen.findByRole("form", { name: "Change password" });
  await user.type(within(form).getByLabelText("Current password"), current);
  await user.type(within(form).getByLabelText("New password"), next);
  await user.type(within(form).getByLabelText("Repeat new password"), repeat);
  return form;
}

describe("account page", () => {
  it("changes the password and says the other sessions ended", async () => {
    const api = installFakeApi({ ...shellRoutes(), "POST /api/v1/auth/password": { status: 204 } });
    const { user } = renderApp("/settings/account");

    const form = await fill(user, "old password", "a much longer one");
    await user.click(within(form).getByRole("button", { name: "Change password" }));

    expect(await within(form).findByRole("status")).toHaveTextContent("Password changed");
    expect(api.callsTo("POST /api/v1/auth/password")[0]?.body).toEqual({
      current_password: "old password",
      new_password: "a much longer one",
    });
    expect(api.callsTo("POST /api/v1/auth/password")[0]?.headers["X-CSRF-Token"]).toBe("csrf-test-token");
    expect(within(form).getByLabelText("Current password")).toHaveValue("");
  });

  it("shows the server's reason under the field it concerns", async () => {
    installFakeApi({
      ...shellRoutes(),
      "POST /api/v1/auth/password": {
        status: 422,
        body: {
          code: "validation_error",
          message: "the current password is not correct",
          errors: [{ field: "current_password", reason: "does not match" }],
        },
      },
    });
    const { user } = renderApp("/settings/account");

    const form = await fill(user, "wrong one", "a much longer one");
    await user.click(within(form).getByRole("button", { name: "Change password" }));

    const current = within(form).getByLabelText("Current password");
    expect(await within(form).findByRole("alert")).toHaveTextContent("the current password is not correct");
    expect(current).toHaveAttribute("aria-invalid", "true");
    expect(current).toHaveAccessibleDescription("does not match");
  });

  it("says so before sending when the two new passwords differ", async () => {
    const api = installFakeApi({ ...shellRoutes(), "POST /api/v1/auth/password": { status: 204 } });
    const { user } = renderApp("/settings/account");

    const form = await fill(user, "old password", "a much longer one", "a much longer 0ne");

    expect(within(form).getByLabelText("Repeat new password")).toHaveAccessibleDescription(
      "does not match the new password",
    );
    expect(within(form).getByRole("button", { name: "Change password" })).toBeDisabled();
    expect(api.callsTo("POST /api/v1/auth/password")).toHaveLength(0);
  });
});
