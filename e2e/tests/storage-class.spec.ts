import { expect, openFromNav, saveScreenshot, signIn, test } from "./fixtures";
import fs from "node:fs";
import path from "node:path";

const scratch = path.join(process.env.E2E_DATA_DIR ?? "", "scratch", "e2e-ssd");

test("a target with a storage class shows what its spec promises, and a run is judged and advised", async ({
  page,
}) => {
  fs.mkdirSync(scratch, { recursive: true });
  await signIn(page);
  await openFromNav(page, "Hosts");
  await expect(page.getByRole("row", { name: /localhost/ })).toContainText(/online|busy/, { timeout: 30_000 });

  // An 800 GiB SSD cloud disk: the published worked example, 20,000 IOPS and 300 MB/s.
  await openFromNav(page, "Targets");
  const form = page.getByRole("form", { name: "New target" });
  await form.getByLabel("Name").fill("ssd 800");
  await form.getByLabel("Host").selectOption({ label: "localhost" });
  await form.getByLabel("Path").fill(scratch);
  await form.getByLabel("Storage class").selectOption({ label: "SSD cloud disk" });
  await form.getByLabel("Provisioned capacity (GiB)").fill("800");
  const expected = form.getByRole("status", { name: "Expected figures" });
  await expect(expected).toContainText("20,000 IOPS");
  await expect(expected).toContainText("300 MB/s");
  await saveScreenshot(page, "target-storage-class");
  await form.getByRole("button", { name: /create|add|save/i }).click();
  await expect(page.getByRole("row", { name: /ssd 800/ })).toContainText("SSD cloud disk");

  // The 10 s random-read preset on it: judged against 20,000 IOPS and advised.
  await openFromNav(page, "Runs");
  const start = page.getByRole("form", { name: "Start run" });
  await start.getByLabel("Target").selectOption({ label: `ssd 800 (localhost:${scratch})` });
  await start.getByLabel("Plan").selectOption("preset:randread-4k-iops");
  await start.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/runs\/\d+$/);
  await expect(page.getByRole("status").first()).toHaveText("completed", { timeout: 90_000 });

  const checks = page.getByRole("group", { name: /^Spec checks of / });
  await expect(checks).toContainText(/(meets|below|above) spec.*% of 20,000 IOPS/);
  const findings = page.getByRole("list", { name: /^Findings for / });
  // A 10 s run is too short to trust: the advisor says so, and how to fix it.
  await expect(findings).toContainText("under 30 s");
  await expect(findings).toContainText("Fix: set time_based=1 and runtime=60");
  await saveScreenshot(page, "run-spec-and-findings");
});
