import type { Page } from "@playwright/test";
import { csrfHeader, expect, saveScreenshot, signIn, test } from "./fixtures";

// Issue 24, "needs attention": the dashboard lists what needs looking at, each item linking to the
// page that resolves it. Here a revoked host: it shows, its link leads to Hosts, removing it there
// clears it. Names are unique: other journeys share the database.

async function registerAndRevoke(page: Page, name: string): Promise<void> {
  const headers = await csrfHeader(page);
  const created = await page.request.post("/api/v1/hosts", { headers, data: { name } });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { id: number }).id;
  const revoked = await page.request.post(`/api/v1/hosts/${id}/revoke`, { headers });
  expect(revoked.status(), await revoked.text()).toBe(200);
}

async function widerThanScreen(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

test("a revoked host needs attention until it is removed from Hosts", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page);
  const name = `j-att-${Date.now()}`;
  await registerAndRevoke(page, name);

  await page.goto("/");
  await expect(page).toHaveTitle("Dashboard · storbench");
  const panel = page.getByRole("region", { name: "Needs attention" });
  const item = panel.getByRole("listitem").filter({ hasText: `'${name}'` });
  await expect(item).toContainText("host revoked");
  await expect(item).toContainText(`Host '${name}' was revoked`);
  await saveScreenshot(page, "attention-1280");

  // On a phone the panel and its sentences fit the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(item).toBeVisible();
  expect(await widerThanScreen(page), "the dashboard is wider than a 390 px screen").toBeLessThanOrEqual(0);
  await saveScreenshot(page, "attention-390");
  await page.setViewportSize({ width: 1280, height: 800 });

  // Its link leads to the page that resolves it: Hosts, where an owner removes the host.
  await item.getByRole("link", { name: /^Open hosts/ }).click();
  await expect(page).toHaveTitle("Hosts · storbench");
  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText("revoked");
  await row.getByRole("button", { name: `Remove ${name}` }).click();
  await row.getByRole("button", { name: "Remove host" }).click();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toHaveCount(0);

  // Back on the dashboard, it no longer needs attention.
  await page.getByRole("link", { name: "Dashboard" }).click();
  await expect(page).toHaveTitle("Dashboard · storbench");
  await expect(panel).toBeVisible();
  await expect(panel.getByText(/^Loading/)).toHaveCount(0);
  await expect(panel.getByRole("listitem").filter({ hasText: `'${name}'` })).toHaveCount(0);
});
