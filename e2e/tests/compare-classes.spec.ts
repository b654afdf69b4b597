import path from "node:path";
import type { Page } from "@playwright/test";
import { readingAt, realFioOutput } from "./fio-outputs";
import { csrfHeader, expect, saveScreenshot, signIn, test } from "./fixtures";

const scratch = path.join(process.env.E2E_DATA_DIR ?? "", "scratch", "e2e-compare");
const JOB = "compare-classes-randread";
const RUN = Date.now().toString(36);
// Three repetitions of the same 4 KiB random read on three classes: clearly apart, each with its noise.
const CLASSES: [string, number[]][] = [
  [`cmp-${RUN} NAS capacity`, [9_900, 10_050, 10_000]],
  [`cmp-${RUN} NAS performance`, [24_800, 25_100, 25_000]],
  [`cmp-${RUN} CFS turbo`, [10_020, 9_980, 10_060]],
];

/** Import every repetition of every class; the result ids in class order. */
async function importClasses(page: Page): Promise<number[]> {
  const base = realFioOutput(JOB, scratch);
  const headers = await csrfHeader(page);
  const ids: number[] = [];
  let at = Date.UTC(2026, 5, 1) / 1000;
  for (const [storageClass, repetitions] of CLASSES) {
    for (const iops of repetitions) {
      at += 3600;
      const response = await page.request.post("/api/v1/results/import", {
        headers,
        multipart: {
          file: { name: "out.json", mimeType: "application/json", buffer: Buffer.from(readingAt(base, iops, at)) },
          storage_class: storageClass,
          label: storageClass,
        },
      });
      expect(response.status(), await response.text()).toBe(201);
      ids.push(((await response.json()) as { results: { id: number }[] }).results[0]!.id);
    }
  }
  return ids;
}

test("compare three classes, read the verdict, and a teammate opens the same comparison", async ({ page, browser }) => {
  await signIn(page);
  const ids = await importClasses(page);

  // The results page's row selection leads here with the ids; the baseline is the first class.
  await page.goto(`/compare?ids=${ids.join(",")}&baseline=${ids[0]}`);
  await expect(page).toHaveTitle("Compare · storbench");
  const differences = page.getByRole("table", { name: "What differs between the sides" });
  await expect(differences).toBeVisible();
  await expect(differences.getByRole("row", { name: /Storage class/ })).toContainText(CLASSES[1]![0]);

  const figures = page.getByRole("table", { name: "Figures side by side" });
  await expect(figures.getByRole("columnheader", { name: new RegExp(`${CLASSES[2]![0]}.*n=3`) })).toBeVisible();
  const iops = figures.getByRole("row", { name: /^IOPS read/ });
  await expect(iops).toContainText("10.0k");
  await expect(iops).toContainText("25.0k");
  await expect(iops).toContainText("+150.0 %");

  // The verdict: performance is better beyond noise; turbo is no change from capacity.
  const verdicts = page.getByRole("list", { name: "Verdicts" });
  const performance = verdicts.getByRole("listitem").filter({ hasText: `${CLASSES[1]![0]} — IOPS read` });
  await expect(performance).toContainText(/better — \+150\.\d %/);
  await expect(performance).toContainText(/Welch's t-test on log values p/);
  await expect(performance).toContainText("95 % CI");
  const turbo = verdicts.getByRole("listitem").filter({ hasText: `${CLASSES[2]![0]} — IOPS read` });
  await expect(turbo).toContainText("no change");

  // Grouped by class: one group per class within the one job shape.
  const groups = page.getByRole("table", { name: "Groups" });
  for (const [storageClass] of CLASSES) {
    await expect(groups.getByRole("row", { name: new RegExp(storageClass) })).toContainText("randread 4 KiB QD1 ×1");
  }

  // Save the view; a teammate opens the permalink in another browser and sees the same comparison.
  const permalink = page.url();
  await page.getByLabel("View name").fill(`three classes ${RUN}`);
  await page.getByRole("button", { name: "Save view" }).click();
  const saved = page.getByRole("status").filter({ hasText: "Saved as" });
  await expect(saved).toBeVisible();
  const viewUrl = (await saved.getByRole("link").getAttribute("href")) ?? "";
  expect(viewUrl).toMatch(/^\/compare\?view=\d+$/);
  const performanceText = await performance.textContent();

  const invitation = await page.request.post("/api/v1/teams/current/invitations", {
    headers: await csrfHeader(page),
    data: { role: "viewer" },
  });
  expect(invitation.status()).toBe(201);
  const link = new URL(((await invitation.json()) as { link: string }).link, page.url()).href;
  const teammateContext = await browser.newContext();
  const teammate = await teammateContext.newPage();
  await teammate.goto(link);
  await teammate.getByLabel("Email").fill(`teammate-${RUN}@example.com`);
  await teammate.getByLabel("Password").fill("teammate-password-1");
  await teammate.getByRole("button", { name: "Join team" }).click();
  await expect(teammate.getByRole("heading", { name: "Dashboard" })).toBeVisible();

  await teammate.goto(viewUrl);
  await expect(teammate.getByRole("heading", { name: `Compare: three classes ${RUN}` })).toBeVisible();
  const seen = teammate.getByRole("list", { name: "Verdicts" }).getByRole("listitem").filter({ hasText: `${CLASSES[1]![0]} — IOPS read` });
  await expect(seen).toHaveText(performanceText ?? "");
  await teammate.goto(permalink);
  await expect(teammate.getByRole("table", { name: "Figures side by side" }).getByRole("row", { name: /^IOPS read/ })).toContainText("+150.0 %");
  await teammateContext.close();

  await page.getByRole("heading", { name: "Side by side" }).scrollIntoViewIfNeeded();
  await saveScreenshot(page, "compare-classes");
});
