import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, openFromNav, saveScreenshot, signIn, test } from "./fixtures";

// Real fio outputs kept with the fio package's tests: fio 2.2.10 JSON (its "timestamp" is
// 2016-07-07 09:40 UTC) and fio 3.27 text from Windows (its job header says Mon Mar 7 10:15:02 2022).
const golden = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "fio", "tests", "golden");

test("old fio outputs are dated by fio's own timestamps, and one imported again is recognised", async ({ page }) => {
  // Other journeys share the database: names (and so the outputs' bytes) of this run only.
  const tag = `hist-${Date.now().toString(36)}`;
  const storageClass = `archive ${tag}`;
  const json = fs
    .readFileSync(path.join(golden, "fio-2.2.10.json"), "utf8")
    .replace('"jobname" : "randread"', `"jobname" : "${tag}-2016"`);
  const text = fs.readFileSync(path.join(golden, "fio-3.27-windows.txt"), "utf8").replaceAll("nas-randread", `${tag}-2022`);

  await signIn(page);
  await openFromNav(page, "Results");
  const form = page.getByRole("form", { name: "Import fio output" });

  async function importFile(name: string, content: string) {
    await form.getByLabel("fio output file").setInputFiles({ name, mimeType: "text/plain", buffer: Buffer.from(content) });
    await form.getByLabel(/Storage class/).fill(storageClass);
    await form.getByRole("button", { name: "Import" }).click();
    return form.getByRole("status");
  }

  const first = await importFile("nas-2016.json", json);
  await expect(first).toContainText("Imported 1 result from fio JSON (fio-2.2.10)");
  await expect(first).toContainText("measured 2016-07-07");
  const second = await importFile("nas-2022.txt", text);
  await expect(second).toContainText("Imported 1 result from fio text output");
  await expect(second).toContainText("measured 2022-03-07 10:15:02");

  // The history of this storage class: each result dated when fio measured, years before today.
  await page.goto(`/results?storage_class=${encodeURIComponent(storageClass)}`);
  const history = page.getByRole("table", { name: "Result history" });
  const old = history.getByRole("row", { name: new RegExp(`${tag}-2016`) });
  await expect(old.locator("time")).toHaveText(/^2016-07-07 /);
  await expect(old.locator("time")).toHaveAttribute("datetime", "2016-07-07T09:40:00Z");
  const windows = history.getByRole("row", { name: new RegExp(`${tag}-2022`) });
  await expect(windows.locator("time")).toHaveText("2022-03-07 10:15:02");
  await expect(windows).toContainText("imported");

  // The same JSON again, under another file name: recognised, not stored twice.
  const again = await importFile("copy-of-nas-2016.json", json);
  await expect(again).toContainText(/Already imported on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d: this exact output is result #\d+/);
  await expect(again).toContainText("Nothing was stored again.");
  await expect(again).toContainText("measured 2016-07-07");
  await page.reload();
  await expect(history.getByRole("row", { name: new RegExp(`${tag}-2016`) })).toHaveCount(1);
  await expect(page.getByRole("form", { name: "Import fio output" })).toBeVisible();
  // Show the duplicate notice on the final screen.
  const finalForm = page.getByRole("form", { name: "Import fio output" });
  await finalForm.getByLabel("fio output file").setInputFiles({ name: "again.json", mimeType: "text/plain", buffer: Buffer.from(json) });
  await finalForm.getByLabel(/Storage class/).fill(storageClass);
  await finalForm.getByRole("button", { name: "Import" }).click();
  await expect(finalForm.getByRole("status")).toContainText("Already imported on");
  await saveScreenshot(page, "import-history");
});
