import { expect, openFromNav, saveScreenshot, signIn, test } from "./fixtures";
import { createPlan, createTarget, scratchDirectory, targetOption, waitForLocalWorker, waitForRunDone } from "./steps";

// Unique names: the specs share one database.
const suffix = Date.now().toString(36);
const PLAN = `cloud disk randread ${suffix}`;
// The cloud block-storage guide's random read IOPS command (METHODOLOGY.md), as a user copies it,
// shortened to seconds: a 16 MiB file for 3 s instead of 1 GiB for 1000 s.
const VENDOR_COMMAND =
  "fio -direct=1 -iodepth=128 -rw=randread -ioengine=libaio -bs=4k -size=16M -numjobs=1 " +
  "-runtime=3 -time_based -group_reporting -filename=iotest -name=Rand_Read_Testing";

test("a pasted vendor command becomes a plan, runs twice with labels and the two runs are compared", async ({
  page,
}) => {
  const target = { name: `paste target ${suffix}`, path: scratchDirectory(`e2e-paste-${suffix}`) };
  await signIn(page);
  await waitForLocalWorker(page);
  await createTarget(page, target);

  // Paste the command as the guide prints it; the API reads it into one job.
  const planRow = await createPlan(page, { name: PLAN, fio: VENDOR_COMMAND, job: "Rand_Read_Testing" });

  // Run it now from the plans list, labelled.
  await expect(planRow).toContainText("iodepth=128");
  await planRow.getByRole("button", { name: `Run ${PLAN} now` }).click();
  const runNow = planRow.getByRole("form", { name: `Run ${PLAN}` });
  await runNow.getByLabel("Target").selectOption({ label: targetOption(target) });
  await runNow.getByLabel("Run label").fill("nconnect=1");
  await runNow.getByRole("button", { name: "Start run of v1" }).click();
  const first = await waitForRunDone(page);
  await expect(page.getByTestId("run-label")).toHaveText("nconnect=1");
  await expect(page.getByText("Plan", { exact: true }).locator("xpath=following-sibling::dd")).toHaveText(
    `${PLAN} (version 1)`,
  );

  // Run it again from its page, and label the second run there.
  await page.getByRole("button", { name: "Run again" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/runs/${first}$`));
  // The new run's page, not the first one's still on screen while the navigation renders.
  await expect(page).toHaveTitle(`Run ${page.url().split("/").pop()} · storbench`);
  await page.getByRole("button", { name: "Edit label and note" }).click();
  const labelForm = page.getByRole("form", { name: "Label and note" });
  await labelForm.getByLabel("Run label").fill("nconnect=8");
  await labelForm.getByLabel("Run note").fill("remounted with nconnect=8");
  await labelForm.getByRole("button", { name: "Save label and note" }).click();
  await expect(page.getByTestId("run-label")).toHaveText("nconnect=8");
  const second = await waitForRunDone(page);
  expect(second).not.toBe(first);

  // Both runs in the list with their label and headline figure; filter by label, select, compare.
  await openFromNav(page, "Runs");
  await page.getByLabel("Label filter").fill("nconnect");
  const firstRow = page.getByRole("row", { name: new RegExp(`#${first}\\b`) });
  const secondRow = page.getByRole("row", { name: new RegExp(`#${second}\\b`) });
  await expect(firstRow).toContainText("nconnect=1");
  await expect(secondRow).toContainText("nconnect=8");
  await expect(firstRow).toContainText(/IOPS · p99 \d/);
  await expect(secondRow).toContainText(/IOPS · p99 \d/);
  await expect(page).toHaveURL(/label=nconnect/);
  await firstRow.getByRole("checkbox", { name: `Select run #${first} to compare` }).check();
  await secondRow.getByRole("checkbox", { name: `Select run #${second} to compare` }).check();
  await page.getByRole("link", { name: "Compare 2 runs" }).click();

  await expect(page).toHaveURL(/\/compare\?ids=\d+,\d+$/);
  await expect(page).toHaveTitle(/Compare · storbench/);
  await expect(page.getByRole("heading", { name: /Compare/, level: 1 })).toBeVisible();
  await saveScreenshot(page, "paste-plan-compare");
});
