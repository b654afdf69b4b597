import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Run, RunCreate } from "../../../lib/api/types";
import { fakeRoutes, installFakeApi } from "../../../test/fake-api";
import { makeHost, makePlan, makePreset, makeRun, makeTarget, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

function routes() {
  return fakeRoutes({
    ...shellRoutes(),
    "GET /api/v1/runs": { body: page([]) },
    "GET /api/v1/targets": { body: page([makeTarget()]) },
    "GET /api/v1/plans": { body: page([makePlan()]) },
    "GET /api/v1/presets": { body: page([makePreset()]) },
    "POST /api/v1/runs": { status: 201, body: makeRun({ id: 42 }) },
    "GET /api/v1/runs/42": { body: makeRun({ id: 42 }) },
  });
}

describe("start run form", () => {
  it("starts a saved plan on a target and opens the run", async () => {
    const api = installFakeApi(routes());
    const { user } = renderApp("/runs");
    const form = await screen.findByRole("form", { name: "Start run" });
    await within(form).findByRole("option", { name: "4k random read" });
    await within(form).findByRole("option", { name: /netapp-vol1/ });

    await user.selectOptions(within(form).getByLabelText("Target"), "netapp-vol1 (nfs-client-01:/mnt/netapp/bench)");
    await user.selectOptions(within(form).getByLabelText("Plan"), "4k random read");
    await user.click(within(form).getByRole("button", { name: "Start run" }));

    expect(await screen.findByRole("heading", { name: "Run #42", level: 1 }, { timeout: 8_000 })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/runs")[0]?.body).toEqual({ target_id: 3, plan_id: 5 });
  });

  it("also runs on the hosts chosen and on every host of a label", async () => {
    const api = installFakeApi({
      ...routes(),
      "GET /api/v1/hosts": {
        body: page([
          makeHost({ id: 1, name: "nfs-client-01" }),
          makeHost({ id: 2, name: "nfs-client-02", labels: ["rack4"] }),
          makeHost({ id: 4, name: "nfs-client-04", status: "busy", labels: ["rack4"] }),
          makeHost({ id: 3, name: "nfs-client-03", status: "offline" }),
        ]),
      },
    });
    const { user } = renderApp("/runs");
    const form = await screen.findByRole("form", { name: "Start run" });
    await within(form).findByRole("option", { name: "4k random read" });
    await within(form).findByRole("option", { name: /netapp-vol1/ });
    expect(within(form).queryByRole("group", { name: /Also run on hosts/ })).not.toBeInTheDocument();

    await user.selectOptions(within(form).getByLabelText("Target"), "netapp-vol1 (nfs-client-01:/mnt/netapp/bench)");
    await user.selectOptions(within(form).getByLabelText("Plan"), "4k random read");
    const more = await within(form).findByRole("group", { name: /Also run on hosts/ });
    expect(more).toHaveAccessibleDescription(/starts fio at the same moment on \/mnt\/netapp\/bench.*so each must mount that path/);
    // Online hosts other than the target's own.
    expect(within(more).getAllByRole("checkbox")).toHaveLength(2);
    expect(within(more).getByRole("checkbox", { name: "nfs-client-04 (busy) · labels rack4" })).not.toBeChecked();
    await user.click(within(more).getByRole("checkbox", { name: "nfs-client-02 · labels rack4" }));
    await user.type(within(form).getByLabelText(/Or every host labelled/), "rack4");
    expect(within(form).getByLabelText(/Or every host labelled/)).toHaveAccessibleDescription("Adds nfs-client-02, nfs-client-04.");
    await user.click(within(form).getByRole("button", { name: "Start run" }));

    expect(await screen.findByRole("heading", { name: "Run #42", level: 1 }, { timeout: 8_000 })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/runs")[0]?.body).toEqual({
      target_id: 3,
      plan_id: 5,
      host_ids: [2],
      host_label: "rack4",
      shared_files: false,
    });
  });

  it("starts a preset by its id and shows the run under the preset's name", async () => {
    // As the server answers: a run from a preset is named after it, one from inline jobs is unnamed.
    let started: Run | undefined;
    const api = installFakeApi({
      ...routes(),
      "POST /api/v1/runs": (request) => {
        const body = request.body as RunCreate;
        const preset = body.preset_id === "azure-files-iops" ? makePreset() : undefined;
        started = makeRun({ id: 42, plan_id: null, plan_name: preset?.name ?? null });
        return { status: 201, body: started };
      },
      "GET /api/v1/runs/42": () => (started ? { body: started } : { status: 404 }),
      "GET /api/v1/runs": () => ({ body: page(started ? [started] : []) }),
    });
    const { user } = renderApp("/");
    const form = await screen.findByRole("form", { name: "Start run" });
    await within(form).findByRole("option", { name: "Max IOPS (Azure Files)" });
    await within(form).findByRole("option", { name: /netapp-vol1/ });

    await user.selectOptions(within(form).getByLabelText("Target"), "netapp-vol1 (nfs-client-01:/mnt/netapp/bench)");
    await user.selectOptions(within(form).getByLabelText("Plan"), "Max IOPS (Azure Files)");
    // The jobs the preset will run, its global options folded in, are shown before starting.
    expect(within(form).getByRole("list", { name: "Jobs to run" })).toHaveTextContent(/\[randread\] .*ioengine=libaio/);
    await user.click(within(form).getByRole("button", { name: "Start run" }));

    expect(await screen.findByRole("heading", { name: "Run #42", level: 1 }, { timeout: 8_000 })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/runs")[0]?.body).toEqual({ target_id: 3, preset_id: "azure-files-iops" });
    expect(screen.getByText("Plan", { selector: "dt" }).nextElementSibling).toHaveTextContent(/^Max IOPS$/);

    await user.click(within(screen.getByRole("navigation")).getByRole("link", { name: "Runs" }));
    const row = await screen.findByRole("row", { name: /#42/ });
    expect(row).toHaveTextContent("Max IOPS");
    expect(row).not.toHaveTextContent("inline jobs");
  });

  it("shows the server's refusal of a preset on the plan field", async () => {
    installFakeApi({
      ...routes(),
      "POST /api/v1/runs": {
        status: 422,
        body: {
          code: "validation_error",
          message: "unknown preset 'azure-files-iops'",
          errors: [{ field: "preset_id", value: "azure-files-iops", reason: "see GET /api/v1/presets" }],
        },
      },
    });
    const { user } = renderApp("/runs");
    const form = await screen.findByRole("form", { name: "Start run" });
    await within(form).findByRole("option", { name: "Max IOPS (Azure Files)" });
    await within(form).findByRole("option", { name: /netapp-vol1/ });

    await user.selectOptions(within(form).getByLabelText("Target"), "netapp-vol1 (nfs-client-01:/mnt/netapp/bench)");
    await user.selectOptions(within(form).getByLabelText("Plan"), "Max IOPS (Azure Files)");
    await user.click(within(form).getByRole("button", { name: "Start run" }));

    await waitFor(() => expect(within(form).getByLabelText("Plan")).toHaveAccessibleDescription("see GET /api/v1/presets"));
  });

  it("asks for a target and a plan instead of sending an empty request", async () => {
    const api = installFakeApi(routes());
    const { user } = renderApp("/runs");
    const form = await screen.findByRole("form", { name: "Start run" });

    await user.click(within(form).getByRole("button", { name: "Start run" }));

    expect(within(form).getByLabelText("Target")).toHaveAccessibleDescription("Choose a target.");
    expect(within(form).getByLabelText("Plan")).toHaveAccessibleDescription("Choose a plan or preset.");
    expect(api.callsTo("POST /api/v1/runs")).toHaveLength(0);
  });

  it("offers only presets for the host's platform, checks space before starting and sends a label", async () => {
    const windows = makePreset({ id: "nas-windows-randread-iops", name: "NAS random read IOPS (Windows)", platform: "windows" });
    const api = installFakeApi({
      ...routes(),
      "GET /api/v1/hosts": { body: page([makeHost({ id: 1, name: "nfs-client-01", facts: { os: "Linux-6.1.0-x86_64" } })]) },
      "GET /api/v1/presets": { body: page([makePreset(), windows]) },
      "POST /api/v1/runs/check": {
        body: {
          ok: false,
          hosts: ["nfs-client-01"],
          platform: "linux",
          needs_bytes: 160 * 2 ** 30,
          free_bytes: 40 * 2 ** 30,
          usable_bytes: 36 * 2 ** 30,
          memory_bytes: 2 ** 20,
          memory_limit_bytes: 2 ** 32,
          summary: ["needs 160 GiB, the target has 40 GiB free (36 GiB usable: 10% is kept free)"],
          problems: [{ option: "size", reason: "the jobs' files need 160 GiB, the target has 40 GiB free" }],
        },
      },
    });
    const { user } = renderApp("/runs");
    const form = await screen.findByRole("form", { name: "Start run" });
    await within(form).findByRole("option", { name: /netapp-vol1/ });
    await user.selectOptions(within(form).getByLabelText("Target"), "netapp-vol1 (nfs-client-01:/mnt/netapp/bench)");
    await waitFor(() =>
      expect(within(form).queryByRole("option", { name: /NAS random read IOPS \(Windows\)/ })).not.toBeInTheDocument(),
    );
    expect(within(form).getByText(/1 preset is not offered: nfs-client-01 runs Linux/)).toBeInTheDocument();

    await user.selectOptions(within(form).getByLabelText("Plan"), "4k random read");
    const check = await within(form).findByRole("status", { name: "Before starting" });
    expect(check).toHaveTextContent("needs 160 GiB, the target has 40 GiB free");
    expect(check).toHaveTextContent("The server would refuse this run");
    expect(api.callsTo("POST /api/v1/runs/check")[0]?.body).toEqual({ target_id: 3, plan_id: 5 });
    expect(api.callsTo("POST /api/v1/runs")).toHaveLength(0);

    await user.type(within(form).getByLabelText(/Run label/), "after firmware 2.1");
    await user.click(within(form).getByRole("button", { name: "Start run" }));
    await waitFor(() =>
      expect(api.callsTo("POST /api/v1/runs")[0]?.body).toEqual({ target_id: 3, plan_id: 5, label: "after firmware 2.1" }),
    );
  });
});

describe("start run form on block devices", () => {
  const device = makeTarget({ id: 8, name: "nvme-scratch", path: "/dev/nvme1n1", kind: "block_device", destructive: true, storage_class: "local-nvme" });
  const writePlan = makePlan({
    id: 6,
    name: "4k random write",
    jobs: [{ name: "randwrite", rw: "randwrite", bs: 4096, iodepth: 32, runtime: 60, time_based: true, direct: true }],
  });

  function deviceRoutes() {
    return fakeRoutes({
      ...routes(),
      "GET /api/v1/targets": { body: page([makeTarget(), device]) },
      "GET /api/v1/plans": { body: page([makePlan(), writePlan]) },
      "POST /api/v1/runs": { status: 201, body: makeRun({ id: 42 }) },
    });
  }

  it("asks for consent only when a chosen job writes to a block device, and sends it", async () => {
    const api = installFakeApi(deviceRoutes());
    const { user } = renderApp("/runs");
    const form = await screen.findByRole("form", { name: "Start run" });
    await within(form).findByRole("option", { name: "4k random write" });
    await within(form).findByRole("option", { name: /nvme-scratch/ });
    const consent = /I understand this run destroys the data on/;

    await user.selectOptions(within(form).getByLabelText("Target"), "nvme-scratch (nfs-client-01:/dev/nvme1n1)");
    await user.selectOptions(within(form).getByLabelText("Plan"), "4k random read");
    expect(within(form).queryByRole("checkbox", { name: consent })).not.toBeInTheDocument();

    await user.selectOptions(within(form).getByLabelText("Target"), "netapp-vol1 (nfs-client-01:/mnt/netapp/bench)");
    await user.selectOptions(within(form).getByLabelText("Plan"), "4k random write");
    expect(within(form).queryByRole("checkbox", { name: consent })).not.toBeInTheDocument();

    await user.selectOptions(within(form).getByLabelText("Target"), "nvme-scratch (nfs-client-01:/dev/nvme1n1)");
    const checkbox = within(form).getByRole("checkbox", { name: "I understand this run destroys the data on /dev/nvme1n1" });
    expect(checkbox).toBeRequired();
    expect(checkbox).not.toBeChecked();
    await user.click(within(form).getByRole("button", { name: "Start run" }));
    expect(api.callsTo("POST /api/v1/runs")).toHaveLength(0);
    expect(checkbox).toBeInvalid();

    await user.click(checkbox);
    await user.click(within(form).getByRole("button", { name: "Start run" }));

    expect(await screen.findByRole("heading", { name: "Run #42", level: 1 }, { timeout: 8_000 })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/runs")[0]?.body).toEqual({ target_id: 8, plan_id: 6, confirm_destructive: true });
  });

  it("asks again after switching to another device", async () => {
    const other = makeTarget({ id: 9, name: "sdb", path: "/dev/sdb", kind: "block_device", destructive: false });
    const api = installFakeApi({ ...deviceRoutes(), "GET /api/v1/targets": { body: page([device, other]) } });
    const { user } = renderApp("/runs");
    const form = await screen.findByRole("form", { name: "Start run" });
    await within(form).findByRole("option", { name: "4k random write" });
    await within(form).findByRole("option", { name: /sdb/ });

    await user.selectOptions(within(form).getByLabelText("Plan"), "4k random write");
    await user.selectOptions(within(form).getByLabelText("Target"), "nvme-scratch (nfs-client-01:/dev/nvme1n1)");
    await user.click(within(form).getByRole("checkbox", { name: /destroys the data on \/dev\/nvme1n1/ }));
    await user.selectOptions(within(form).getByLabelText("Target"), "sdb (nfs-client-01:/dev/sdb)");

    const checkbox = within(form).getByRole("checkbox", { name: "I understand this run destroys the data on /dev/sdb" });
    expect(checkbox).not.toBeChecked();
    expect(checkbox).toHaveAccessibleDescription(/has not allowed destructive writes/);
    expect(api.callsTo("POST /api/v1/runs")).toHaveLength(0);
  });

  it("lists the server's reasons per job and option", async () => {
    const api = installFakeApi({
      ...deviceRoutes(),
      "POST /api/v1/runs": {
        status: 422,
        body: {
          code: "validation_error",
          message: "fio job rejected: size: set size: the files are created in the target (and 1 more)",
          errors: [
            { option: "size", value: "", reason: "set size: the files are created in the target", job: "bare" },
            { option: "runtime", value: "", reason: "set runtime (at most 3600 s)", job: "bare" },
          ],
        },
      },
      "GET /api/v1/plans": { body: page([makePlan({ id: 12, name: "bare read", jobs: [{ name: "bare", rw: "randread", bs: 4096 }] })]) },
    });
    const { user } = renderApp("/runs");
    const form = await screen.findByRole("form", { name: "Start run" });
    await within(form).findByRole("option", { name: "bare read" });
    await within(form).findByRole("option", { name: /netapp-vol1/ });

    await user.selectOptions(within(form).getByLabelText("Target"), "netapp-vol1 (nfs-client-01:/mnt/netapp/bench)");
    await user.selectOptions(within(form).getByLabelText("Plan"), "bare read");
    // Said before sending: the server's rules for directory targets.
    const note = within(form).getByRole("note", { name: "Runs will refuse" });
    expect(note).toHaveTextContent("[bare] runtime: not set: runs refuse jobs without a runtime");
    expect(note).toHaveTextContent("[bare] size: not set: runs on this directory target need a size");

    await user.click(within(form).getByRole("button", { name: "Start run" }));

    const alert = await within(form).findByRole("alert");
    const reasons = within(alert).getAllByRole("listitem").map((item) => item.textContent);
    expect(reasons).toEqual(["[bare] size: set size: the files are created in the target", "[bare] runtime: set runtime (at most 3600 s)"]);
    expect(api.callsTo("POST /api/v1/runs")[0]?.body).toEqual({ target_id: 3, plan_id: 12 });
  });
});

describe("start run form on several hosts sharing files", () => {
  const sharedPlan = makePlan({ id: 14, name: "shared 4k read", shared_files: true });
  const device = makeTarget({ id: 8, name: "nvme-scratch", path: "/dev/nvme1n1", kind: "block_device", destructive: true });
  const SHARED = "Hosts share one set of files";

  function sharedRoutes() {
    return fakeRoutes({
      ...routes(),
      "GET /api/v1/targets": { body: page([makeTarget(), device]) },
      "GET /api/v1/plans": { body: page([makePlan(), sharedPlan]) },
      "GET /api/v1/hosts": {
        body: page([makeHost({ id: 1, name: "nfs-client-01" }), makeHost({ id: 2, name: "nfs-client-02", labels: ["rack4"] })]),
      },
    });
  }

  async function openForm() {
    const rendered = renderApp("/runs");
    const form = await screen.findByRole("form", { name: "Start run" });
    await within(form).findByRole("option", { name: "shared 4k read" });
    await within(form).findByRole("option", { name: /nvme-scratch/ });
    return { ...rendered, form };
  }

  it("asks only when several hosts run on a directory, and sends the answer", async () => {
    const api = installFakeApi(sharedRoutes());
    const { user, form } = await openForm();

    await user.selectOptions(within(form).getByLabelText("Target"), "netapp-vol1 (nfs-client-01:/mnt/netapp/bench)");
    await user.selectOptions(within(form).getByLabelText("Plan"), "4k random read");
    // One host has nobody to share with.
    expect(within(form).queryByRole("checkbox", { name: SHARED })).not.toBeInTheDocument();

    await user.type(within(form).getByLabelText(/Or every host labelled/), "rack4");
    expect(within(form).getByRole("checkbox", { name: SHARED })).toBeInTheDocument();
    await user.clear(within(form).getByLabelText(/Or every host labelled/));
    expect(within(form).queryByRole("checkbox", { name: SHARED })).not.toBeInTheDocument();

    await user.click(within(form).getByRole("checkbox", { name: "nfs-client-02 · labels rack4" }));
    const shared = within(form).getByRole("checkbox", { name: SHARED });
    expect(shared).not.toBeChecked();
    expect(shared).toHaveAccessibleDescription(
      "Off: each host writes its own files, so no host reads what another cached. On: all hosts work on the same files, laid out once.",
    );

    // A block device is one device for every host: there are no files to share.
    await user.selectOptions(within(form).getByLabelText("Target"), "nvme-scratch (nfs-client-01:/dev/nvme1n1)");
    expect(within(form).getByRole("checkbox", { name: "nfs-client-02 · labels rack4" })).toBeChecked();
    expect(within(form).queryByRole("checkbox", { name: SHARED })).not.toBeInTheDocument();

    await user.selectOptions(within(form).getByLabelText("Target"), "netapp-vol1 (nfs-client-01:/mnt/netapp/bench)");
    await user.click(within(form).getByRole("checkbox", { name: SHARED }));
    await user.click(within(form).getByRole("button", { name: "Start run" }));

    expect(await screen.findByRole("heading", { name: "Run #42", level: 1 }, { timeout: 8_000 })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/runs")[0]?.body).toEqual({ target_id: 3, plan_id: 5, host_ids: [2], shared_files: true });
  });

  it("leaves shared files out of a block-device run on several hosts", async () => {
    const api = installFakeApi(sharedRoutes());
    const { user, form } = await openForm();

    await user.selectOptions(within(form).getByLabelText("Target"), "nvme-scratch (nfs-client-01:/dev/nvme1n1)");
    await user.selectOptions(within(form).getByLabelText("Plan"), "shared 4k read");
    await user.click(within(form).getByRole("checkbox", { name: "nfs-client-02 · labels rack4" }));
    await user.click(within(form).getByRole("button", { name: "Start run" }));

    expect(await screen.findByRole("heading", { name: "Run #42", level: 1 }, { timeout: 8_000 })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/runs")[0]?.body).toEqual({ target_id: 8, plan_id: 14, host_ids: [2] });
  });

  it("starts from the chosen plan's choice, which the run may override", async () => {
    const api = installFakeApi(sharedRoutes());
    const { user, form } = await openForm();

    await user.selectOptions(within(form).getByLabelText("Target"), "netapp-vol1 (nfs-client-01:/mnt/netapp/bench)");
    await user.click(within(form).getByRole("checkbox", { name: "nfs-client-02 · labels rack4" }));
    await user.selectOptions(within(form).getByLabelText("Plan"), "shared 4k read");
    expect(within(form).getByRole("checkbox", { name: SHARED })).toBeChecked();
    await user.selectOptions(within(form).getByLabelText("Plan"), "4k random read");
    expect(within(form).getByRole("checkbox", { name: SHARED })).not.toBeChecked();
    await user.selectOptions(within(form).getByLabelText("Plan"), "shared 4k read");
    expect(within(form).getByRole("checkbox", { name: SHARED })).toBeChecked();

    await user.click(within(form).getByRole("checkbox", { name: SHARED }));
    await user.click(within(form).getByRole("button", { name: "Start run" }));

    expect(await screen.findByRole("heading", { name: "Run #42", level: 1 }, { timeout: 8_000 })).toBeInTheDocument();
    expect(api.callsTo("POST /api/v1/runs")[0]?.body).toEqual({ target_id: 3, plan_id: 14, host_ids: [2], shared_files: false });
  });

  it("shows the server's refusal of shared files on the checkbox", async () => {
    installFakeApi({
      ...sharedRoutes(),
      "POST /api/v1/runs": {
        status: 422,
        body: {
          code: "validation_error",
          message: "shared_files applies to directory targets: on a block device every host of the run already uses the same device",
          errors: [{ field: "shared_files", value: "true", reason: "target is a block device" }],
        },
      },
    });
    const { user, form } = await openForm();

    await user.selectOptions(within(form).getByLabelText("Target"), "netapp-vol1 (nfs-client-01:/mnt/netapp/bench)");
    await user.selectOptions(within(form).getByLabelText("Plan"), "shared 4k read");
    await user.click(within(form).getByRole("checkbox", { name: "nfs-client-02 · labels rack4" }));
    await user.click(within(form).getByRole("button", { name: "Start run" }));

    const shared = within(form).getByRole("checkbox", { name: SHARED });
    await waitFor(() => expect(shared).toBeInvalid());
    expect(shared).toHaveAccessibleDescription(/laid out once\. target is a block device$/);
    expect(within(form).getByRole("alert")).toHaveTextContent(/on a block device every host of the run already uses the same device/);
  });
});
