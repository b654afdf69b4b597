import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, openFromNav, saveScreenshot, signIn, test } from "./fixtures";

const golden = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "fio", "tests", "golden");

test("results are relabelled, deleted with confirmation, and their raw fio output downloads as uploaded", async ({
  page,
}) => {
  const tag = `ctl-${Date.now().toString(36)}`;
  const storageClass = `controls ${tag}`;
  const base = fs.readFileSync(path.join(golden, "fio-2.2.10.json"), "utf8");
  const keep = base.replace('"jobname" : "randread"', `"jobname" : "${tag}-keep"`);
  const drop = base.replace('"jobname" : "randread"', `"jobname" : "${tag}-drop"`);

  await signIn(page);
  await openFromNav(page, "Results");
  const form = page.getByRole("form", { name: "Import fio output" });
  for (const [name, content] of [
    ["keep.json", keep],
    ["drop.json", drop],
  ] as const) {
    await form.getByLabel("fio output file").setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(content) });
    await form.getByLabel(/Storage class/).fill(storageClass);
    await form.getByLabel(/Label/).fill(`before ${tag}`);
    await form.getByRole("button", { name: "Import" }).click();
    await expect(form.getByRole("status")).toContainText("Imported 1 result");
  }

  await page.goto(`/results?storage_class=${encodeURIComponent(storageClass)}`);
  const history = page.getByRole("table", { name: "Result history" });
  const kept = history.getByRole("row", { name: new RegExp(`${tag}-keep`) });
  const dropped = history.getByRole("row", { name: new RegExp(`${tag}-drop`) });
  await expect(kept).toContainText(`before ${tag}`);

  // Relabel in place.
  await kept.getByRole("button", { name: /^Relabel result \d+$/ }).click();
  const field = kept.getByLabel(/^Label of result \d+$/);
  await field.fill(`nconnect=8 ${tag}`);
  await field.press("Enter");
  await expect(kept).toContainText(`nconnect=8 ${tag}`);
  await page.reload();
  await expect(history.getByRole("row", { name: new RegExp(`${tag}-keep`) })).toContainText(`nconnect=8 ${tag}`);

  // Download fio's raw output: the very bytes that were uploaded.
  // The row's actions are behind its Actions menu.
  await kept.getByLabel(/^Actions for result \d+$/).click();
  const downloading = page.waitForEvent("download");
  await kept.getByRole("link", { name: /^Raw fio output of result \d+$/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^fio-output-result-\d+\.json$/);
  const saved = await download.path();
  expect(fs.readFileSync(saved).equals(Buffer.from(keep))).toBe(true);
  await kept.getByLabel(/^Actions for result \d+$/).click(); // closes its menu again

  // Delete asks first; cancelling keeps the result.
  await dropped.getByLabel(/^Actions for result \d+$/).click();
  await dropped.getByRole("button", { name: /^Delete result \d+$/ }).click();
  const confirm = dropped.getByRole("group", { name: /^Delete result \d+\?$/ });
  await expect(confirm).toContainText("audit log");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(dropped).toBeVisible();
  await dropped.getByRole("button", { name: /^Delete result \d+$/ }).click();
  await dropped.getByRole("button", { name: "Delete result", exact: true }).click();
  await expect(history.getByRole("row", { name: new RegExp(`${tag}-drop`) })).toHaveCount(0);
  await expect(kept).toBeVisible();

  // The audit log names who deleted it.
  await openFromNav(page, "Audit", "Audit log");
  await expect(page.getByRole("table").getByRole("row", { name: /result\.deleted/ }).first()).toBeVisible();

  await page.goto(`/results?storage_class=${encodeURIComponent(storageClass)}`);
  await expect(history.getByRole("row", { name: new RegExp(`${tag}-keep`) })).toContainText(`nconnect=8 ${tag}`);
  await saveScreenshot(page, "results-controls");
});
