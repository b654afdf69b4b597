/**
 * The `test` every journey uses: it fails on any console error or uncaught page error, so a
 * journey that "works" while the browser logs a failed request or a React warning does not pass.
 * Import `test` and `expect` from here, not from "@playwright/test".
 */
import { test as base, expect, type Page } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const email = "e2e-admin@example.com";
export const password = "e2e-password";
// The package is an ES module: no __dirname.
const here = path.dirname(fileURLToPath(import.meta.url));
export const artifacts = path.join(here, "..", "artifacts");

// Chromium logs every 4xx/5xx answer as a console error with this text.
const FAILED_RESOURCE = /^Failed to load resource: the server responded with a status of \d+/;

// Where a failed journey leaves what the screen and the server said (printed last by make test-e2e,
// so a CI log's tail shows it).
const diagnosisFile = path.join(here, "..", "test-results", "diagnosis.txt");

export const test = base.extend<{
  expectedHttpErrors: RegExp[];
  consoleErrors: string[];
  diagnoseFailure: void;
}>({
  /**
   * Error answers a journey provokes on purpose (a refused bad input), as patterns of
   * "Failed to load resource: … status of 422 … (<url>)". Only those console lines are let through;
   * set per test with test.use({ expectedHttpErrors: [/status of 422 .*\/api\/v1\/targets\)$/] }).
   */
  expectedHttpErrors: [[], { option: true }],
  consoleErrors: [
    async ({ page, expectedHttpErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() !== "error") return;
        const line = `${message.text()} (${message.location().url})`;
        if (FAILED_RESOURCE.test(message.text()) && expectedHttpErrors.some((pattern) => pattern.test(line))) return;
        errors.push(`console error: ${line}`);
      });
      page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
      await use(errors);
      expect(errors, "the browser logged errors during the journey").toEqual([]);
    },
    { auto: true },
  ],
  /** After a failed journey: the page it was on, and the hosts as the API saw them then. */
  diagnoseFailure: [
    async ({ page }, use, testInfo) => {
      await use();
      if (testInfo.status === testInfo.expectedStatus) return;
      const lines = [`${testInfo.title}`, `  page: ${page.url()} (${await page.title().catch(() => "?")})`];
      try {
        const answer = await page.request.get("/api/v1/hosts?limit=100", { timeout: 5_000 });
        const hosts = answer.ok() ? ((await answer.json()) as { items: Record<string, unknown>[] }).items : [];
        lines.push(`  GET /api/v1/hosts ${answer.status()} at ${new Date().toISOString()}`);
        for (const host of hosts) lines.push(`    ${host.name}: ${host.status}, last seen ${host.last_seen_at}`);
      } catch (error) {
        lines.push(`  GET /api/v1/hosts failed: ${String(error)}`);
      }
      fs.mkdirSync(path.dirname(diagnosisFile), { recursive: true });
      fs.appendFileSync(diagnosisFile, lines.join("\n") + "\n");
    },
    { auto: true },
  ],
});

export { expect };

/** Sign in as the e2e admin from the login page. */
export async function signIn(page: Page): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/**
 * Open a page from the main navigation and wait until it is the one shown. A navigation renders in
 * a transition: for a moment after the click the previous page is still on screen, and a locator
 * such as a row naming "localhost" would find the dashboard's runs instead of the Hosts table.
 * The page's title is set when the new page has rendered.
 */
export async function openFromNav(page: Page, label: string, title: string = label): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label, exact: true }).click();
  await expect(page).toHaveTitle(`${title} · storbench`);
}

/** Save the journey's final screen under e2e/artifacts/<name>.png. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

/** The session's CSRF token as the header a write through page.request must send. */
export async function csrfHeader(page: Page): Promise<Record<string, string>> {
  const cookie = (await page.context().cookies()).find((c) => c.name === "storbench_csrf");
  return { "X-CSRF-Token": cookie?.value ?? "" };
}
