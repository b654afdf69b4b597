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
export const artifacts = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "artifacts");

export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") {
          errors.push(`console error: ${message.text()} (${message.location().url})`);
        }
      });
      page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
      await use(errors);
      expect(errors, "the browser logged errors during the journey").toEqual([]);
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

/** Save the journey's final screen under e2e/artifacts/<name>.png. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}
