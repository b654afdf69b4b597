import { expect, openFromNav, saveScreenshot, signIn, test } from "./fixtures";
import { fillTargetForm, saveTargetForm, scratchDirectory, startRun, waitForLocalWorker, waitForRunDone } from "./steps";

// Journey 1: a first visit, then a first run from a preset on a target that has a storage class,
// read against the class's spec line. Names are unique: other journeys share the database.
const name = `j1 ssd ${Date.now()}`;

test("a first visit signs in, runs a preset on a classed target and reads it against the spec", async ({ page }) => {
  const target = { name, path: scratchDirectory(`j1-${Date.now()}`), storageClass: "SSD cloud disk", capacityGib: 800 };

  // First visit: the sign-in page, named in the title, with no error logged for "not signed in".
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
  await expect(page).toHaveTitle("Sign in · storbench");
  await signIn(page);
  await expect(page).toHaveTitle("Dashboard · storbench");

  // The local worker is there, ready.
  await waitForLocalWorker(page);

  // A target with a class: an 800 GiB SSD cloud disk, 20,000 IOPS and 300 MB/s as published.
  await openFromNav(page, "Targets");
  const form = await fillTargetForm(page, target);
  const expected = form.getByRole("status", { name: "Expected figures" });
  await expect(expected).toContainText("20,000 IOPS");
  // Vendors publish decimal MB/s: ours (MiB/s) beside it.
  await expect(expected).toContainText("300 MB/s (286 MiB/s)");
  await expect(await saveTargetForm(page, form, target)).toContainText("SSD cloud disk");

  // The first run, from the 4 KiB random read preset.
  const runId = await startRun(page, { target, plan: { preset: "randread-4k-iops" } });
  await expect(page).toHaveTitle(`Run ${runId} · storbench`);
  await waitForRunDone(page);

  // The figures, judged against the class's spec line.
  const results = page.getByRole("region", { name: "Results" });
  const figures = results.getByRole("table", { name: /^Figures for / });
  const read = figures.getByRole("row", { name: /^read/ });
  await expect(read).toContainText(/\d+(\.\d+)?k? /);
  await expect(read).toContainText(/MiB\/s/);
  await expect(read).toContainText(/MB\/s/);
  await expect(read).toContainText(/(µs|ms)/);
  const checks = results.getByRole("group", { name: /^Spec checks of / });
  await expect(checks).toContainText(/read iops: (meets|below|above) spec.*% of 20,000 IOPS/);

  // How steady it was (fio's own samples), and the latency histogram from fio's json+ bins.
  const spread = results.getByRole("table", { name: /^Spread over the run/ });
  await expect(spread.getByRole("row", { name: /^read/ })).toContainText(/(µs|ms)/);
  const histogram = results.getByRole("figure", { name: /^Latency histogram: / });
  await expect(histogram.locator("svg.recharts-surface")).toBeVisible();
  await expect(histogram.locator(".recharts-bar-rectangle").first()).toBeVisible();

  // Figures are right-aligned.
  const iopsCell = read.getByRole("cell").first();
  await expect(iopsCell).toHaveCSS("text-align", "right");
  await saveScreenshot(page, "first-run-preset");
});
