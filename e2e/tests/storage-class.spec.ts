import { expect, openFromNav, saveScreenshot, signIn, test } from "./fixtures";
import { fillTargetForm, saveTargetForm, scratchDirectory, startRun, waitForLocalWorker, waitForRunDone } from "./steps";

test("a target with a storage class shows what its spec promises, and a run is judged and advised", async ({
  page,
}) => {
  const target = { name: "ssd 800", path: scratchDirectory("e2e-ssd"), storageClass: "SSD cloud disk", capacityGib: 800 };
  await signIn(page);
  await waitForLocalWorker(page);

  // An 800 GiB SSD cloud disk: the published worked example, 20,000 IOPS and 300 MB/s.
  await openFromNav(page, "Targets");
  const form = await fillTargetForm(page, target);
  const expected = form.getByRole("status", { name: "Expected figures" });
  await expect(expected).toContainText("20,000 IOPS");
  await expect(expected).toContainText("300 MB/s");
  await saveScreenshot(page, "target-storage-class");
  await expect(await saveTargetForm(page, form, target)).toContainText("SSD cloud disk");

  // The 30 s random-read preset on it: judged against 20,000 IOPS and advised.
  await startRun(page, { target, plan: { preset: "randread-4k-iops" } });
  await waitForRunDone(page);

  const checks = page.getByRole("group", { name: /^Spec checks of / });
  await expect(checks).toContainText(/(meets|below|above) spec.*% of 20,000 IOPS/);
  const findings = page.getByRole("list", { name: /^Findings for / });
  // The quick preset's 64 MiB file fits in the host's memory: the advisor says a cache may answer,
  // and how to fix it.
  await expect(findings).toContainText("smaller than twice the host's");
  await expect(findings).toContainText("Fix: use size ≥");
  await saveScreenshot(page, "run-spec-and-findings");
});
