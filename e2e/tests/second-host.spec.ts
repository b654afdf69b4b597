/**
 * Journey 2: add a second host with the command the Hosts page shows. The stack runs in the remote
 * mode (`make up REMOTE=1`: start-stack.sh), so the page gives this machine's network address and a
 * Redis broker other hosts can reach. A second worker process is started on this machine with exactly
 * that command, but for the two things a user fills in: the directory it lends (<DIRECTORY>, here a
 * scratch directory) and where the token file goes (here the scratch area, not /etc). The install
 * line is not run here (it would apt-get and write /opt: this machine already has the worker); the
 * test checks that the server serves what it installs.
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, openFromNav, saveScreenshot, signIn, test } from "./fixtures";
import { createTarget, startRun, waitForRunDone } from "./steps";

const dataDir = process.env.E2E_DATA_DIR ?? "";
const secondHost = path.join(dataDir, "second-host");
const lent = path.join(secondHost, "lent");
const tokenFile = path.join(secondHost, "storbench-token");
const venvBin = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", ".venv", "bin");

/** Stop the worker and everything it started (its own process group), and wait for it to go. */
async function stopWorker(worker: ChildProcess | null): Promise<void> {
  if (!worker?.pid || worker.exitCode !== null) return;
  const gone = new Promise((resolve) => worker.once("exit", resolve));
  try {
    process.kill(-worker.pid, "SIGTERM");
  } catch {
    return;
  }
  const killed = setTimeout(() => {
    try {
      process.kill(-worker.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }, 10_000);
  await gone;
  clearTimeout(killed);
}

test("a second host joins with the command the Hosts page shows, and runs a job", async ({ page, request }) => {
  test.skip(process.env.E2E_REMOTE === "0", "the stack runs without the remote mode (E2E_REMOTE=0)");
  test.setTimeout(240_000);
  fs.rmSync(secondHost, { recursive: true, force: true });
  fs.mkdirSync(path.join(secondHost, "home"), { recursive: true });
  fs.mkdirSync(lent, { recursive: true });
  const hostName = os.hostname();
  let worker: ChildProcess | null = null;
  const output: string[] = [];
  try {
    await signIn(page);
    await openFromNav(page, "Hosts");

    // The page says this server takes hosts on other machines, by which address and broker.
    const guide = page.getByRole("region", { name: "Add a host" });
    const notice = guide.getByRole("status", { name: "Remote hosts" });
    await expect(notice).toContainText("Hosts on other machines can join");
    const serverUrl = (await notice.locator("code").nth(0).textContent()) ?? "";
    const broker = (await notice.locator("code").nth(1).textContent()) ?? "";
    expect(serverUrl).toMatch(/^http:\/\/\d+\.\d+\.\d+\.\d+:\d+$/);
    expect(serverUrl).not.toContain("127.0.0.1");
    expect(broker).toMatch(/^redis:\/\/\d+\.\d+\.\d+\.\d+:\d+\/0$/);
    await expect(guide.getByRole("button", { name: "Copy install command" })).toBeVisible();

    // An owner creates an enrollment token: the panel shows the complete command, with a copy button.
    const form = page.getByRole("form", { name: "New enrollment token" });
    await form.getByLabel(/Token name/).fill("second host");
    await form.getByRole("button", { name: "Create enrollment token" }).click();
    const panel = page.getByRole("region", { name: "New enrollment token" });
    await expect(panel.getByRole("button", { name: "Copy command" })).toBeVisible();
    const command = (await panel.getByLabel("Enrollment command").textContent()) ?? "";
    const [install, writeToken, start] = command.split("\n").filter((line) => line && !line.startsWith("#"));
    expect(install).toContain(`pip install -r ${serverUrl}/api/v1/worker/requirements.txt`);
    expect(writeToken).toContain("/etc/storbench-token");
    expect(start).toContain(`--server ${serverUrl} --token-file /etc/storbench-token`);
    expect(start).toContain("--allow <DIRECTORY>");
    expect(start).not.toMatch(/sbe_/); // the token is never on the worker's command line

    // What the install line installs is there, at the address the page gives.
    const requirements = await request.get(`${serverUrl}/api/v1/worker/requirements.txt`);
    expect(requirements.ok()).toBeTruthy();
    // Each wheel link carries the sha256 pip checks the download against: it is the served file's.
    const lines = (await requirements.text()).split("\n");
    const wheels = lines.filter((line) => /\.whl#sha256=[0-9a-f]{64}$/.test(line));
    expect(wheels).toHaveLength(3);
    for (const wheel of wheels) {
      const [url, digest] = wheel.split("#sha256=");
      const served = await request.get(url);
      expect(served.ok()).toBeTruthy();
      expect(crypto.createHash("sha256").update(await served.body()).digest("hex")).toBe(digest);
    }

    // The second worker: the page's command, with the directory and the token file filled in.
    const filled = [writeToken, start]
      .map((line) => line.replaceAll("/etc/storbench-token", tokenFile).replaceAll("<DIRECTORY>", lent))
      .join(" && ");
    worker = spawn("bash", ["-c", filled], {
      detached: true, // its own process group, stopped as one in finally
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        PATH: `${venvBin}:${process.env.PATH ?? ""}`,
        // A fresh machine: its own home, so its own state directory and credential.
        HOME: path.join(secondHost, "home"),
      },
    });
    worker.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    worker.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    await page.getByRole("region", { name: "New enrollment token" }).getByRole("button", { name: "Done" }).click();

    // It enrolls under this machine's name and comes online.
    const row = page.getByRole("row", { name: new RegExp(`^${hostName}\\b`) });
    await expect(row, `worker output:\n${output.join("")}`).toContainText("online", { timeout: 60_000 });
    await expect(row).toContainText(lent);

    // A target on it, and a run of the 4 KiB random read preset there.
    const target = { name: "second host scratch", path: lent, host: hostName };
    await createTarget(page, target);
    await startRun(page, { target, plan: { preset: "randread-4k-iops" } });
    await waitForRunDone(page, { message: `worker output:\n${output.join("")}` });
    await expect(page.getByRole("main")).toContainText(hostName);

    // Back on Hosts: both machines, the new one with what it lends.
    await openFromNav(page, "Hosts");
    await expect(page.getByRole("row", { name: /^localhost\b/ })).toContainText(/online|busy/);
    await expect(page.getByRole("row", { name: new RegExp(`^${hostName}\\b`) })).toContainText(/online|busy/);
    await saveScreenshot(page, "second-host");
  } finally {
    await stopWorker(worker);
  }
});
