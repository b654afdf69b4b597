import fs from "node:fs";
import path from "node:path";
import { expect, openFromNav, saveScreenshot, signIn, test } from "./fixtures";

// Unique names: the specs share one database.
const suffix = Date.now().toString(36);
const scratch = path.join(process.env.E2E_DATA_DIR ?? "", "scratch", `e2e-cancel-${suffix}`);
const TARGET = `cancel target ${suffix}`;
const PLAN = `two minute read ${suffix}`;
const LONG_JOB = "fio --name=long-read --rw=randread --bs=4k --size=16m --runtime=120 --time_based --ioengine=psync";

test("a long run is cancelled after a confirmation and its partial result appears without a reload", async ({
  page,
}) => {
  fs.mkdirSync(scratch, { recursive: true });
  await signIn(page);
  await openFromNav(page, "Hosts");
  await expect(page.getByRole("row", { name: /localhost/ })).toContainText(/online|busy/, { timeout: 30_000 });

  await openFromNav(page, "Targets");
  const targetForm = page.getByRole("form", { name: "New target" });
  await targetForm.getByLabel("Name").fill(TARGET);
  await targetForm.getByLabel("Host").selectOption({ label: "localhost" });
  await targetForm.getByLabel("Path").fill(scratch);
  await targetForm.getByRole("button", { name: /create|add|save/i }).click();
  await expect(page.getByRole("row", { name: new RegExp(TARGET) })).toBeVisible();

  await openFromNav(page, "Plans");
  const planForm = page.getByRole("form", { name: "New plan" });
  await planForm.getByLabel("Plan name").fill(PLAN);
  await planForm.getByLabel("fio job file or command line").fill(LONG_JOB);
  await expect(planForm.getByRole("group", { name: "Job 1: long-read" })).toBeVisible();
  await planForm.getByRole("button", { name: "Save plan" }).click();
  await expect(planForm.getByRole("status")).toHaveText(`Plan ${PLAN} saved.`);

  // Start it from the runs page, where the form says what it needs before it starts.
  await openFromNav(page, "Runs");
  const start = page.getByRole("form", { name: "Start run" });
  await start.getByLabel("Target").selectOption({ label: `${TARGET} (localhost:${scratch})` });
  await start.getByLabel("Plan").selectOption({ label: PLAN });
  const check = start.getByRole("status", { name: "Before starting" });
  await expect(check).toContainText("Ready to start on localhost");
  await expect(check).toContainText(/needs 16 MiB, the target has [\d.]+ [KMGT]iB free/);
  await start.getByLabel("Run label").fill("to be cancelled");
  await start.getByRole("button", { name: "Start run" }).click();

  await expect(page).toHaveURL(/\/runs\/\d+$/);
  const status = page.getByRole("status").first();
  await expect(status).toHaveText("running", { timeout: 60_000 });
  // A few seconds of fio, so something was measured.
  const progress = page.getByRole("progressbar", { name: "Progress on localhost" });
  await expect(progress).toHaveAttribute("aria-valuenow", /^([3-9]|\d\d)(\.\d+)?$/, { timeout: 30_000 });

  // Cancel asks first; answering no keeps the run going.
  await page.getByRole("button", { name: "Cancel run" }).click();
  const confirm = page.getByRole("group", { name: /^Cancel run #\d+\?$/ });
  await expect(confirm).toContainText("what it measured so far is kept, marked partial");
  await confirm.getByRole("button", { name: "Cancel", exact: true }).click();
  await expect(status).toHaveText("running");
  await page.getByRole("button", { name: "Cancel run" }).click();
  await page.getByRole("group", { name: /^Cancel run #\d+\?$/ }).getByRole("button", { name: "Stop the run" }).click();

  await expect(status).toHaveText("cancelled", { timeout: 15_000 });
  // The host sends what fio measured before it stopped; the page shows it without a reload.
  const results = page.getByRole("region", { name: "Results" });
  await expect(results.getByText("partial", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(results).toContainText("IOPS");
  await expect(page.getByTestId("run-label")).toHaveText("to be cancelled");
  await saveScreenshot(page, "cancel-run");
});
