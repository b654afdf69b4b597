import fs from "node:fs";
import path from "node:path";
import { expect, openFromNav, saveScreenshot, signIn, test } from "./fixtures";

// Journey 1: a first visit, then a first run from a preset on a target that has a storage class,
// read against the class's spec line. Names are unique: other journeys share the database.
const name = `j1 ssd ${Date.now()}`;
const scratch = path.join(process.env.E2E_DATA_DIR ?? "", "scratch", `j1-${Date.now()}`);

test("a first visit signs in, runs a preset on a classed target and reads it against the spec", async ({ page }) => {
  fs.mkdirSync(scratch, { recursive: true });

  // First visit: the sign-in page, named in the title, with no error logged for "not signed in".
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
  await expect(page).toHaveTitle("Sign in · storbench");
  await signIn(page);
  await expect(page).toHaveTitle("Dashboard · storbench");

  // The local worker is there, ready.
  await openFromNav(page, "Hosts");
  await expect(page.getByRole("row", { name: /localhost/ })).toContainText(/online|busy/, { timeout: 30_000 });

  // A target with a class: an 800 GiB SSD cloud disk, 20,000 IOPS and 300 MB/s as published.
  await openFromNav(page, "Targets");
  const form = page.getByRole("form", { name: "New target" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Host").selectOption({ label: "localhost" });
  await form.getByLabel("Path").fill(scratch);
  await form.getByLabel("Storage class").selectOption({ label: "SSD cloud disk" });
  await form.getByLabel("Provisioned capacity (GiB)").fill("800");
  const expected = form.getByRole("status", { name: "Expected figures" });
  await expect(expected).toContainText("20,000 IOPS");
  // Vendors publish decimal MB/s: ours (MiB/s) beside it.
  await expect(expected).toContainText("300 MB/s (286 MiB/s)");
  await form.getByRole("button", { name: /create|add|save/i }).click();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("SSD cloud disk");

  // The first run, from the 4 KiB random read preset.
  await openFromNav(page, "Runs");
  const start = page.getByRole("form", { name: "Start run" });
  await start.getByLabel("Target").selectOption({ label: `${name} (localhost:${scratch})` });
  await start.getByLabel("Plan").selectOption("preset:randread-4k-iops");
  await start.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/runs\/\d+$/);
  const runId = page.url().split("/").pop();
  await expect(page).toHaveTitle(`Run ${runId} · storbench`);
  await expect(page.getByRole("status").first()).toHaveText("completed", { timeout: 90_000 });

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
