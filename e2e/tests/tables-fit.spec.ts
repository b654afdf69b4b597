import type { Page } from "@playwright/test";
import { csrfHeader, expect, saveScreenshot, signIn, test } from "./fixtures";
import { createTargetThroughApi, scratchDirectory } from "./steps";

// Issue 24, "tables that fit": on a phone (390×844) no page is wider than the screen (tables that
// cannot fit become cards or scroll in their own frame), and at 1280 px the results table shows the
// key figures, label and job shape of a result on one line without scrolling sideways.

// Every page of the navigation, by its address and the title it sets once rendered.
const PAGES: [string, string][] = [
  ["/", "Dashboard"],
  ["/hosts", "Hosts"],
  ["/targets", "Targets"],
  ["/plans", "Plans"],
  ["/runs", "Runs"],
  ["/schedules", "Schedules"],
  ["/results", "Results"],
  ["/compare", "Compare"],
  ["/history", "History"],
  ["/regressions", "Regressions"],
  ["/team", "Team"],
  ["/audit", "Audit log"],
  ["/settings/tokens", "API tokens"],
  ["/settings/webhooks", "Webhooks"],
  ["/settings/account", "Account"],
];

/** A finished run of a short labelled job, started through the API as a script would; its id. */
async function seedRun(page: Page, storageClass?: string): Promise<{ id: number; targetName: string }> {
  const target = { name: `j-fit ${Date.now()}`, path: scratchDirectory(`j-fit-${Date.now()}`), storageClass, capacityGib: storageClass ? 100 : undefined };
  const targetId = await createTargetThroughApi(page, target);
  const job = { name: "fit-randread", rw: "randread", bs: "4k", iodepth: 16, numjobs: 1, size: "8m", runtime: 1 };
  const started = await page.request.post("/api/v1/runs", {
    headers: await csrfHeader(page),
    data: { target_id: targetId, jobs: [{ ...job, time_based: true, ioengine: "psync" }] },
  });
  expect(started.status(), await started.text()).toBe(201);
  const id = ((await started.json()) as { id: number }).id;
  await expect(async () => {
    const run = (await (await page.request.get(`/api/v1/runs/${id}`)).json()) as { status: string };
    expect(run.status).toBe("completed");
  }).toPass({ timeout: 90_000 });
  return { id, targetName: target.name };
}

async function pageWidth(page: Page): Promise<{ scrollWidth: number; innerWidth: number; offenders: string[] }> {
  return page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    // What sticks out, to say which element to fix.
    offenders: [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 4)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className)} ${Math.round(el.getBoundingClientRect().right)}`),
  }));
}

test("the results table fits 1280 px", async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page);
  // A class makes the row carry its spec verdicts, the widest words of the row.
  const { targetName } = await seedRun(page, "SSD cloud disk");

  await page.goto("/results");
  await expect(page).toHaveTitle("Results · storbench");
  const table = page.getByRole("table", { name: "Result history" });
  const row = table.getByRole("row", { name: /fit-randread/ }).first();
  await expect(row).toBeVisible();
  // The key figures, the label and the job shape, on one line, with the actions in a menu.
  for (const header of ["IOPS", "Bandwidth", "p99", "Spec", "Label", "Job"]) {
    await expect(table.getByRole("columnheader", { name: new RegExp(header) }).first()).toBeVisible();
  }
  await expect(row).toContainText("4k");
  await expect(row.getByRole("rowheader")).toContainText(targetName);
  await expect(row.getByLabel(/^Actions for result \d+/)).toBeVisible();
  await expect(row).toContainText(/(meets|below|above) \d+%/);
  const frame = await table.evaluate((element) => {
    const scroller = element.closest(".table-scroll") ?? element;
    return { scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth };
  });
  expect(frame.scrollWidth, "the results table scrolls sideways at 1280 px").toBeLessThanOrEqual(frame.clientWidth);
  const rowBox = await row.boundingBox();
  const cellBox = await row.getByRole("cell").first().boundingBox();
  // One line per result: the row is no taller than a couple of lines of text.
  expect(rowBox!.height).toBeLessThan((cellBox?.height ?? 40) + 4);
  expect(rowBox!.height).toBeLessThan(56);
  await saveScreenshot(page, "tables-fit-results-1280");
});

test("every page fits a phone", async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page);
  const { id: runId } = await seedRun(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const tooWide: string[] = [];
  for (const [path, title] of [...PAGES, [`/runs/${runId}`, `Run ${runId}`] as [string, string]]) {
    await page.goto(path);
    await expect(page).toHaveTitle(new RegExp(`^${title}`));
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    // Let the page's lists arrive before measuring: nothing still says it is loading.
    await expect(page.getByText(/^Loading/)).toHaveCount(0);
    const measured = await pageWidth(page);
    if (measured.scrollWidth > measured.innerWidth) {
      tooWide.push(`${path}: ${measured.scrollWidth} px (${measured.offenders.join("; ")})`);
    }
    await saveScreenshot(page, `tables-fit-390${path === "/" ? "-dashboard" : path.replaceAll("/", "-")}`);
  }
  expect(tooWide, "pages wider than a 390 px screen").toEqual([]);
});
