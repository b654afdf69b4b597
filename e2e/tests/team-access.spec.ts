import { expect, openFromNav, saveScreenshot, signIn, test } from "./fixtures";

test("an owner invites a viewer, who joins by link, reads the hosts and cannot start runs", async ({ page, browser }) => {
  // The admin creates a viewer invitation and reads its link once.
  await signIn(page);
  await openFromNav(page, "Team");
  const invite = page.getByRole("form", { name: "Invite someone" });
  await invite.getByLabel("Role").selectOption("viewer");
  await invite.getByRole("button", { name: "Create invitation" }).click();
  const link = await page.getByRole("region", { name: "Invitation link" }).getByLabel("Invitation link").inputValue();
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/invite\/\S{10,}$/);

  // Someone else, in another browser, opens the link and joins with a new account.
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await viewer.goto(link);
  const viewerEmail = `viewer-${Date.now()}@example.com`;
  await viewer.getByLabel("Email").fill(viewerEmail);
  await viewer.getByLabel("Password").fill("viewer-password-1");
  await viewer.getByRole("button", { name: "Join team" }).click();

  await expect(viewer.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(viewer).toHaveURL(/\/$/);
  await expect(viewer.getByTitle("Your role in this team")).toHaveText("viewer");
  await expect(viewer.getByRole("form", { name: "Start run" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Start run" })).toHaveCount(0);

  await openFromNav(viewer, "Hosts");
  await expect(viewer.getByRole("row", { name: /localhost/ })).toBeVisible();
  await expect(viewer.getByRole("form", { name: "Add host" })).toHaveCount(0);
  await openFromNav(viewer, "Runs");
  await expect(viewer.getByRole("heading", { name: "All runs" })).toBeVisible();
  await expect(viewer.getByRole("form", { name: "Start run" })).toHaveCount(0);

  // The session survives a reload (cookie), and the server itself refuses a viewer's run.
  await viewer.reload();
  await expect(viewer.getByRole("heading", { name: "Runs", exact: true })).toBeVisible();
  const csrf = (await viewerContext.cookies()).find((cookie) => cookie.name === "storbench_csrf")?.value ?? "";
  const refused = await viewer.request.post(new URL("/api/v1/runs", link).href, {
    headers: { "X-CSRF-Token": csrf },
    data: { target_id: 1, plan_id: 1 },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).message).toMatch(/can only read/);
  await viewerContext.close();

  // The owner sees the new member and the invitation used.
  await page.reload();
  await expect(page.getByRole("row", { name: new RegExp(viewerEmail.replace(/\./g, "\\.")) })).toContainText("viewer");
  const invitations = page.getByRole("table", { name: "Invitations" });
  // Other journeys invite teammates too: this invitation is the newest, listed first.
  await expect(invitations.getByRole("row", { name: /viewer accepted/ }).first()).toBeVisible();
  await saveScreenshot(page, "team");
});
