import { readingAt, realFioOutput } from "./fio-outputs";
import { csrfHeader, expect, saveScreenshot, signIn, test } from "./fixtures";
import { createTargetThroughApi, scratchDirectory } from "./steps";

const TARGET = "history nas";
const JOB = "nightly-randread";
// Nine nights near 10,000 IOPS, then four near 7,000: the tenth night is a regression.
const NIGHTS = [10_050, 9_900, 10_100, 9_950, 10_000, 10_080, 9_920, 10_010, 9_990, 7_020, 6_950, 7_080, 6_990];
const FIRST_NIGHT = Date.UTC(2026, 0, 1) / 1000;

test("a trend shows the regression found in a target's history, and it is acknowledged", async ({ page }) => {
  await signIn(page);
  const scratch = scratchDirectory("e2e-history");
  const base = realFioOutput(JOB, scratch);
  const targetId = await createTargetThroughApi(page, { name: TARGET, path: scratch });

  // Thirteen nights of fio outputs imported into the target's history, as a CI job would.
  const headers = await csrfHeader(page);
  for (const [night, iops] of NIGHTS.entries()) {
    const imported = await page.request.post("/api/v1/results/import", {
      headers,
      multipart: {
        file: { name: `night-${night}.json`, mimeType: "application/json", buffer: Buffer.from(readingAt(base, iops, FIRST_NIGHT + night * 86_400)) },
        target_id: String(targetId),
      },
    });
    expect(imported.status(), await imported.text()).toBe(201);
  }

  // The trend: pick the target, its job and the figure.
  // The imports came in beside the browser (as from a CI job): a fresh page load shows them.
  await page.goto("/history");
  await expect(page).toHaveTitle("History · storbench");
  await page.getByLabel("Target", { exact: true }).selectOption({ label: TARGET });
  await page.getByLabel("Job and direction").selectOption({ label: `${JOB} · read (13)` });
  await page.getByLabel("Figure").selectOption({ label: "IOPS" });
  const chart = page.getByRole("figure", { name: `IOPS of ${JOB} (read) over time` });
  await expect(chart).toContainText("13 results, oldest first");
  await expect(chart.locator(".recharts-reference-line")).toHaveCount(1);
  await expect(chart).toContainText("regression −29.8 %");
  const changes = page.getByRole("table", { name: "Changes on this trend" });
  const change = changes.getByRole("row", { name: /regression/ });
  await expect(change).toContainText("2026-01-10");
  // Not acknowledged yet: a member may acknowledge it from the trend itself.
  await expect(change.getByRole("button", { name: /^Acknowledge/ })).toBeVisible();

  // The regressions page counts it once (IOPS, bandwidth and latency moved at one step: one change to
  // acknowledge), and a member acknowledges it with a comment.
  await page.getByRole("link", { name: /unacknowledged regressions?/ }).click();
  await expect(page).toHaveURL(/\/regressions$/);
  await expect(page.getByText("1 regression not yet acknowledged.")).toBeVisible();
  const row = page.getByRole("table", { name: "Changes found" }).getByRole("row", { name: new RegExp(`${TARGET} · ${JOB} · read · IOPS`) });
  await row.getByRole("button", { name: /Acknowledge regression/ }).click();
  await row.getByLabel("Comment").fill("storage pool moved to HDD tier; ticket OPS-42");
  await row.getByRole("button", { name: "Acknowledge", exact: true }).click();
  await expect(page.getByText("Every regression has been acknowledged.")).toBeVisible();
  await expect(row).toContainText("storage pool moved to HDD tier; ticket OPS-42");

  // Back on the trend: the mark stays, now acknowledged.
  await row.getByRole("link", { name: new RegExp(`${TARGET} · ${JOB} · read · IOPS`) }).click();
  await expect(page).toHaveURL(/\/history\?target_id=\d+&job=nightly-randread&metric=iops&direction=read/);
  await expect(page.getByRole("table", { name: "Changes on this trend" }).getByRole("row", { name: /regression/ })).toContainText(
    "storage pool moved to HDD tier",
  );
  await expect(page.getByRole("figure", { name: `IOPS of ${JOB} (read) over time` }).locator(".recharts-reference-line")).toHaveCount(1);
  await saveScreenshot(page, "history-regression");
});
