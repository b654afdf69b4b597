import { expect, openFromNav, saveScreenshot, signIn, test } from "./fixtures";
import { createPlan, createTarget, fillStartRunForm, scratchDirectory, submitStartRun, waitForLocalWorker } from "./steps";

// Unique names: the specs share one database.
const suffix = Date.now().toString(36);
const PLAN = `two minute read ${suffix}`;
const LONG_JOB = "fio --name=long-read --rw=randread --bs=4k --size=16m --runtime=120 --time_based --ioengine=psync";

test("a long run is cancelled after a confirmation and its partial result appears without a reload", async ({
  page,
}) => {
  const target = { name: `cancel target ${suffix}`, path: scratchDirectory(`e2e-cancel-${suffix}`) };
  await signIn(page);
  await waitForLocalWorker(page);
  await createTarget(page, target);
  await createPlan(page, { name: PLAN, fio: LONG_JOB, job: "long-read" });

  // Start it from the runs page, where the form says what it needs before it starts.
  await openFromNav(page, "Runs");
  const start = await fillStartRunForm(page, { target, plan: { name: PLAN }, label: "to be cancelled" });
  const check = start.getByRole("status", { name: "Before starting" });
  await expect(check).toContainText("Ready to start on localhost");
  await expect(check).toContainText(/needs 16 MiB, the target has [\d.]+ [KMGT]iB free/);
  await submitStartRun(page, start);

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
