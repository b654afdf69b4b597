import { expect, saveScreenshot, signIn, test } from "./fixtures";
import { fillStartRunForm, fillTargetForm, saveTargetForm, scratchDirectory, submitStartRun, waitForRunDone } from "./steps";

// Journey 7: the first run from a preset on a phone (390×844): the navigation folds behind a
// menu button, tables scroll inside their own frame with the first column fixed, and the key
// figures stay in view.
test.use({ viewport: { width: 390, height: 844 } });

const name = `j7 phone ${Date.now()}`;

async function go(page: import("@playwright/test").Page, link: string) {
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: link, exact: true }).click();
  // A choice folds the menu again.
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
}

async function noSidewaysScroll(page: import("@playwright/test").Page) {
  // What sticks out past the screen's right edge, outside any frame that scrolls on its own.
  const offenders = await page.evaluate(() => {
    const inScroller = (el: Element) => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (style.overflowX === "auto" || style.overflowX === "scroll" || style.overflowX === "hidden") return true;
      }
      return false;
    };
    return [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !inScroller(el))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`);
  });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `the page itself never scrolls sideways (${offenders.join("; ")})`).toBeLessThanOrEqual(390);
}

test("on a phone, the first run from a preset is readable", async ({ page }) => {
  const target = { name, path: scratchDirectory(`j7-${Date.now()}`), storageClass: "SSD cloud disk", capacityGib: 800 };
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
  await signIn(page);

  // The navigation is folded: a Menu button instead of the links.
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Menu" })).toBeVisible();
  await noSidewaysScroll(page);

  await go(page, "Targets");
  await expect(page).toHaveTitle("Targets · storbench");
  const form = await fillTargetForm(page, target);
  await expect(form.getByRole("status", { name: "Expected figures" })).toContainText("20,000 IOPS");
  await saveTargetForm(page, form, target);
  await noSidewaysScroll(page);

  await go(page, "Runs");
  await submitStartRun(page, await fillStartRunForm(page, { target, plan: { preset: "randread-4k-iops" } }));
  await waitForRunDone(page);

  // The result table scrolls inside its own frame; its first column stays put.
  const results = page.getByRole("region", { name: "Results" });
  const figures = results.getByRole("table", { name: /^Figures for / });
  const frame = await figures.evaluate((table) => {
    const scroller = table.closest(".table-scroll") ?? table;
    return { scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth };
  });
  expect(frame.scrollWidth).toBeGreaterThan(frame.clientWidth);
  await noSidewaysScroll(page);
  const read = figures.getByRole("row", { name: /^read/ });
  const direction = read.getByRole("rowheader");
  await expect(direction).toHaveCSS("position", "sticky");

  // Key figures in view without scrolling sideways: the direction, IOPS and bandwidth.
  await read.scrollIntoViewIfNeeded();
  const iops = read.getByRole("cell").nth(0);
  const bandwidth = read.getByRole("cell").nth(1);
  for (const cell of [direction, iops, bandwidth]) {
    await expect(cell).toBeInViewport();
    const box = await cell.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  }
  await expect(iops).toHaveText(/^\d/);

  // Scrolled sideways, the direction column stays where it was.
  const before = await direction.boundingBox();
  await figures.evaluate((table) => {
    (table.closest(".table-scroll") ?? table).scrollLeft = 400;
  });
  const after = await direction.boundingBox();
  expect(after?.x).toBeCloseTo(before?.x ?? -1, 0);
  await expect(results.getByRole("group", { name: /^Spec checks of / })).toContainText("% of 20,000 IOPS");
  await figures.evaluate((table) => {
    (table.closest(".table-scroll") ?? table).scrollLeft = 0;
  });
  await read.scrollIntoViewIfNeeded();
  await saveScreenshot(page, "mobile");
});
