import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, saveScreenshot, signIn, test } from "./fixtures";
import { importThroughApi, saveFirstScreen } from "./steps";

// A real fio 2.14 json+ output (its completion-latency bins make the histogram), kept with the fio
// package's tests; renamed per journey so the output's bytes are new to the shared database.
const golden = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "fio", "tests", "golden");

function jsonPlus(tag: string): { name: string; content: string } {
  const content = fs.readFileSync(path.join(golden, "fio-2.14-jsonplus.json"), "utf8");
  return { name: `${tag}.json`, content: content.replace(/"jobname" : "([^"]+)"/, `"jobname" : "${tag}"`) };
}

for (const screen of [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
]) {
  test.describe(`on a ${screen.name}`, () => {
    test.use({ viewport: screen.viewport });

    test("an imported output has its own page, and it opens with the verdict", async ({ page }) => {
      const tag = `verdict-${screen.name}-${Date.now().toString(36)}`;
      await signIn(page);
      const [resultId] = await importThroughApi(page, jsonPlus(tag), { host_name: `client-${screen.name}` });

      await page.goto(`/results/${resultId}`);
      await expect(page.getByRole("heading", { level: 1, name: new RegExp(`Result #${resultId}`) })).toBeVisible();
      const verdict = page.getByRole("region", { name: /Verdict/ });
      await expect(verdict).toBeVisible();
      // The figures and the verdict fill the first screen, above the fold.
      const iops = verdict.getByRole("group").first().getByText("IOPS", { exact: true });
      await expect(iops).toBeInViewport();
      await expect(verdict.getByText("Not in a target's history")).toBeInViewport();
      // An import's previous is the previous import of its host and job: this job is new.
      await expect(verdict.getByText(/first import of .* nothing to compare with yet/)).toBeVisible();
      await saveFirstScreen(page, `result-verdict-${screen.name}`);

      // Below: the figures table, the latency histogram (log counts) and the raw output.
      await expect(page.getByRole("figure", { name: /Latency histogram/ }).locator("svg.recharts-surface")).toBeVisible();
      await expect(page.getByRole("link", { name: "Download fio's raw output" })).toHaveAttribute(
        "href",
        `/api/v1/results/${resultId}/raw`,
      );
      await saveScreenshot(page, `result-page-${screen.name}`);
    });
  });
}
