// Loads a compare page in headless Chromium (Debian's) several times and prints, as JSON, how long
// each load took from navigation start until the page showed what a reader needs: the fingerprint
// differences, the side-by-side figures, the verdicts and the grouped table (performance.now() in
// the page, so the browser's own clock), and apart from it when the grouped chart (drawn once the
// rest is on screen) showed too. Driven by bench/compare_render.py, which starts the stack.
//
//   node bench/compare_render.mjs <base url> <path> <email> <password> <loads>
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
// Playwright comes with the e2e suite's packages (it is not a Python dependency here).
const require = createRequire(path.join(here, "..", "e2e", "package.json"));
const { chromium } = require("playwright-core");

const [baseUrl, pagePath, email, password, loadsText] = process.argv.slice(2);
const loads = Number(loadsText ?? 7);
const READY = () => {
  const shown = (selector) => {
    const element = document.querySelector(selector);
    return element !== null && element.getBoundingClientRect().height > 0;
  };
  const ready =
    shown('table[aria-label="Figures side by side"] tbody tr') &&
    (shown('table[aria-label="What differs between the sides"]') || shown('p.notice[role="status"]')) &&
    shown('ul[aria-label="Verdicts"] li') &&
    shown('table[aria-label="Groups"] tbody tr');
  return ready ? performance.now() : false;
};

const CHART_READY = () => {
  const chart = document.querySelector('figure.chart svg.recharts-surface');
  return chart !== null && chart.getBoundingClientRect().height > 0 ? performance.now() : false;
};

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
  const login = await context.request.post("/api/v1/auth/login", { data: { email, password } });
  if (!login.ok()) throw new Error(`sign-in failed: ${login.status()} ${await login.text()}`);
  const times = [];
  const chartTimes = [];
  let rows = 0;
  for (let i = 0; i < loads; i += 1) {
    const page = await context.newPage();
    await page.goto(pagePath, { waitUntil: "commit" });
    const handle = await page.waitForFunction(READY, undefined, { polling: "raf", timeout: 60_000 });
    times.push(await handle.jsonValue());
    const chart = await page.waitForFunction(CHART_READY, undefined, { polling: "raf", timeout: 60_000 });
    chartTimes.push(await chart.jsonValue());
    rows = await page.locator('table[aria-label="Figures side by side"] tbody tr').count();
    await page.close();
  }
  console.log(JSON.stringify({ times_ms: times, chart_times_ms: chartTimes, figure_rows: rows }));
} finally {
  await browser.close();
}
