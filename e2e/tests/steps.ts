/**
 * The steps journeys share, as a user takes them: the local worker ready, a new target, a new plan,
 * a run started and followed to its end. Each step opens its page from the main navigation; the
 * fill… steps leave a form filled but unsaved, for journeys that read what it shows before saving,
 * or that reach the page another way (the phone's menu).
 */
import fs from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { artifacts, csrfHeader, expect, openFromNav } from "./fixtures";

/** A fresh directory under the harness's scratch area (the local worker may write there). */
export function scratchDirectory(name: string): string {
  const directory = path.join(process.env.E2E_DATA_DIR ?? "", "scratch", name);
  fs.mkdirSync(directory, { recursive: true });
  return directory;
}

/** Wait until the local worker, host "localhost", is online (busy, while an earlier journey's run ends). */
export async function waitForLocalWorker(page: Page): Promise<void> {
  await openFromNav(page, "Hosts");
  await expect(page.getByRole("row", { name: /localhost/ })).toContainText(/online|busy/, { timeout: 30_000 });
}

export interface NewTarget {
  name: string;
  path: string;
  /** The host's name; "localhost" unless given. */
  host?: string;
  /** A storage class's name, and the capacity provisioned of it. */
  storageClass?: string;
  capacityGib?: number;
}

/** How the start-run forms name a target: "name (host:path)". */
export function targetOption(target: NewTarget): string {
  return `${target.name} (${target.host ?? "localhost"}:${target.path})`;
}

/** The table row that names this text (a target's, a plan's). */
export function rowNaming(page: Page, text: string): Locator {
  return page.getByRole("row", { name: new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) });
}

/** Fill the Targets page's New target form, unsaved; the form. */
export async function fillTargetForm(page: Page, target: NewTarget): Promise<Locator> {
  const form = page.getByRole("form", { name: "New target" });
  await form.getByLabel("Name").fill(target.name);
  await form.getByLabel("Host").selectOption({ label: target.host ?? "localhost" });
  await form.getByLabel("Path").fill(target.path);
  if (target.storageClass !== undefined) {
    await form.getByLabel("Storage class").selectOption({ label: target.storageClass });
  }
  if (target.capacityGib !== undefined) {
    await form.getByLabel("Provisioned capacity (GiB)").fill(String(target.capacityGib));
  }
  return form;
}

/** Save a filled New target form; the new target's row, once listed. */
export async function saveTargetForm(page: Page, form: Locator, target: NewTarget): Promise<Locator> {
  await form.getByRole("button", { name: /create|add|save/i }).click();
  const row = rowNaming(page, target.name);
  await expect(row).toBeVisible();
  return row;
}

/** Create a target from the Targets page; its row. */
export async function createTarget(page: Page, target: NewTarget): Promise<Locator> {
  await openFromNav(page, "Targets");
  return saveTargetForm(page, await fillTargetForm(page, target), target);
}

/** Create a directory target on the local worker through the API, as a script would; its id. */
export async function createTargetThroughApi(page: Page, target: NewTarget): Promise<number> {
  let hostId = 0;
  await expect(async () => {
    const answer = await page.request.get("/api/v1/hosts");
    const hosts = ((await answer.json()) as { items: { id: number; name: string; status: string }[] }).items;
    const host = hosts.find((h) => h.name === (target.host ?? "localhost") && h.status !== "offline");
    expect(host).toBeDefined();
    hostId = host!.id;
  }).toPass({ timeout: 30_000 });
  const data: Record<string, unknown> = { name: target.name, host_id: hostId, path: target.path, kind: "directory" };
  if (target.storageClass !== undefined) {
    const classes = (await (await page.request.get("/api/v1/storage-classes")).json()) as { items: { id: number; name: string }[] };
    const chosen = classes.items.find((item) => item.name === target.storageClass);
    expect(chosen, `storage class ${target.storageClass}`).toBeDefined();
    data.storage_class_id = chosen!.id;
    data.capacity_gib = target.capacityGib ?? null;
  }
  const created = await page.request.post("/api/v1/targets", { headers: await csrfHeader(page), data });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: number }).id;
}

export interface NewPlan {
  name: string;
  /** A fio job file or command line, as pasted. */
  fio: string;
  /** The name of the job the form reads from it. */
  job: string;
}

/** Paste a fio job into a new plan on the Plans page and save it; the plan's row. */
export async function createPlan(page: Page, plan: NewPlan): Promise<Locator> {
  await openFromNav(page, "Plans");
  const form = page.getByRole("form", { name: "New plan" });
  await form.getByLabel("Plan name").fill(plan.name);
  await form.getByLabel("fio job file or command line").fill(plan.fio);
  await expect(form.getByRole("group", { name: `Job 1: ${plan.job}` })).toBeVisible();
  await form.getByRole("button", { name: "Save plan" }).click();
  await expect(form.getByRole("status")).toHaveText(`Plan ${plan.name} saved.`);
  return rowNaming(page, plan.name);
}

export interface NewRun {
  target: NewTarget;
  /** A saved plan's name, or a preset's id. */
  plan: { name: string } | { preset: string };
  label?: string;
}

/** Fill the Runs page's Start run form, not started yet; the form. */
export async function fillStartRunForm(page: Page, run: NewRun): Promise<Locator> {
  const form = page.getByRole("form", { name: "Start run" });
  await form.getByLabel("Target").selectOption({ label: targetOption(run.target) });
  const plan = form.getByLabel("Plan");
  await ("preset" in run.plan ? plan.selectOption(`preset:${run.plan.preset}`) : plan.selectOption({ label: run.plan.name }));
  if (run.label !== undefined) await form.getByLabel("Run label").fill(run.label);
  return form;
}

/** Start the run a filled Start run form describes; its id, once its page shows. */
export async function submitStartRun(page: Page, form: Locator): Promise<number> {
  await form.getByRole("button", { name: "Start run" }).click();
  return shownRunId(page);
}

/** Start a run from the Runs page; its id, once its page shows. */
export async function startRun(page: Page, run: NewRun): Promise<number> {
  await openFromNav(page, "Runs");
  return submitStartRun(page, await fillStartRunForm(page, run));
}

/** The id of the run whose page is shown. */
export async function shownRunId(page: Page): Promise<number> {
  await expect(page).toHaveURL(/\/runs\/\d+$/);
  return Number(new URL(page.url()).pathname.split("/").pop());
}

/**
 * Wait, on a run's page, until the run has ended with this status (completed unless given); the
 * run's id. `message` says what else to show if it does not (a worker's output).
 */
export async function waitForRunDone(
  page: Page,
  { status = "completed", timeout = 90_000, message }: { status?: string; timeout?: number; message?: string } = {},
): Promise<number> {
  const id = await shownRunId(page);
  await expect(page.getByRole("status").first(), message).toHaveText(status, { timeout });
  return id;
}

/** Import an fio output through the API (as the Results page's form does); the ids of its results. */
export async function importThroughApi(
  page: Page,
  output: { name: string; content: string },
  fields: Record<string, string> = {},
): Promise<number[]> {
  const answer = await page.request.post("/api/v1/results/import", {
    headers: await csrfHeader(page),
    multipart: { file: { name: output.name, mimeType: "application/json", buffer: Buffer.from(output.content) }, ...fields },
  });
  expect([200, 201], await answer.text()).toContain(answer.status());
  return ((await answer.json()) as { results: { id: number }[] }).results.map((r) => r.id);
}

/** What the reader sees before scrolling: a screenshot of the viewport only, in e2e/artifacts. */
export async function saveFirstScreen(page: Page, name: string): Promise<void> {
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: false });
}
