import { email, expect, openFromNav, password, saveScreenshot, signIn, test } from "./fixtures";
import { createTarget, fillTargetForm, scratchDirectory, startRun, waitForLocalWorker, waitForRunDone } from "./steps";

const target = { name: "e2e scratch", path: scratchDirectory("e2e-target") };

test("a new user signs in, adds a target, runs a preset and reads the result", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();

  // The local worker registered as host "localhost" and is online (busy, when an earlier journey's
  // run is still finishing on it).
  await waitForLocalWorker(page);

  // Create a target in the scratch area, and start the 4 KiB random read preset on it.
  await createTarget(page, target);
  await startRun(page, { target, plan: { preset: "randread-4k-iops" } });

  // The status changes without reloading the page, ending completed.
  const status = page.getByRole("status");
  await expect(status).toHaveText(/queued|running/);
  await expect(status).toHaveText("running", { timeout: 30_000 });

  // While fio runs (30 s after a 5 s ramp): the host's progress bar and the live per-second chart, fed by the event stream.
  const progress = page.getByRole("progressbar", { name: "Progress on localhost" });
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute("aria-valuenow", /^\d+(\.\d+)?$/, { timeout: 8_000 });
  const live = page.getByRole("figure", { name: "Live throughput" });
  await expect(live).toBeVisible();
  await expect(live.locator("svg.recharts-surface")).toBeVisible({ timeout: 8_000 });
  await saveScreenshot(page, "run-live");

  await waitForRunDone(page, { timeout: 60_000 });
  // The run names the preset it came from, and how much CPU the worker itself took while fio ran.
  await expect(page.getByText("Plan", { exact: true }).locator("xpath=following-sibling::dd")).toHaveText(
    "4 KiB random read IOPS",
  );
  await expect(page.getByText("Worker CPU during fio").locator("xpath=following-sibling::dd")).toHaveText(
    /^\d+\.\d\d% of a core$/,
  );

  // Headline figures and the latency percentile chart.
  await expect(page.getByRole("heading", { name: "Results" })).toBeVisible();
  await expect(page.getByText("IOPS").first()).toBeVisible();
  const chart = page.getByRole("figure", { name: /Latency percentiles/ });
  await expect(chart).toBeVisible();
  await expect(chart.locator("svg.recharts-surface")).toBeVisible();
  // The live chart gives way to the stored per-second series.
  await expect(page.getByRole("figure", { name: "Live throughput" })).toHaveCount(0);
  await expect(page.getByRole("figure", { name: "Per-second throughput" }).locator("svg.recharts-surface")).toBeVisible();
  await saveScreenshot(page, "run-result");
});

test.describe("a refused target", () => {
  // The API's 422 is the point of this test: Chromium logs it, the fixture lets that one through.
  test.use({ expectedHttpErrors: [/status of 422 .*\/api\/v1\/targets\)$/] });

  test("a bad target path is refused with a message that says what to fix", async ({ page }) => {
    await signIn(page);
    await openFromNav(page, "Targets");
    const form = await fillTargetForm(page, { name: "relative", path: "mnt/nas" });
    await form.getByRole("button", { name: /create|add|save/i }).click();
    await expect(page.getByText(/absolute/)).toBeVisible();
  });
});
