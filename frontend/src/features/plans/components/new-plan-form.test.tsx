import { screen, waitFor, within } from "@testing-library/react";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import type { Plan, Schema } from "../../../lib/api/types";
import { installFakeApi, type FakeRequest } from "../../../test/fake-api";
import { makeFioJob, makePlan, makePreset, page, shellRoutes } from "../../../test/factories";
import { realRejectedValidation, realSizesValidation } from "../../../test/fixtures";
import { renderApp } from "../../../test/render-app";

/** POST /fio/validate-jobs answering jobs loaded unchanged (already normalised) with themselves. */
function echoValidation(request: FakeRequest) {
  return { body: request.body as Schema<"JobsOut"> };
}

describe("new plan form", () => {
  it("lists fio's objections per option while a pasted job file is invalid, then loads the valid jobs", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/plans": { body: page([]) },
      "GET /api/v1/presets": { body: page([makePreset()]) },
      "POST /api/v1/fio/validate": (request) => {
        const text = (request.body as { text: string }).text;
        if (text.includes("bs=4q")) {
          return {
            status: 422,
            body: {
              code: "invalid_fio",
              message: "1 invalid option",
              errors: [{ option: "bs", value: "4q", reason: "not a size: use a number with k, m or g" }],
            },
          };
        }
        return { body: { jobs: [makeFioJob({ name: "seqwrite", rw: "write", bs: 1048576, iodepth: 8, direct: true, fsync: 1 })] } };
      },
      "POST /api/v1/fio/validate-jobs": echoValidation,
      "POST /api/v1/plans": (request) => ({ status: 201, body: makePlan({ ...(request.body as object), id: 77 }) }),
    });
    const { user } = renderApp("/plans");
    const form = await screen.findByRole("form", { name: "New plan" });
    const paste = within(form).getByLabelText("fio job file or command line");

    await user.type(paste, "[seqwrite]{enter}rw=write{enter}bs=4q");
    expect(await within(form).findByText(/not a size: use a number with k, m or g/, {}, { timeout: 3_000 })).toBeInTheDocument();

    await user.clear(paste);
    await user.type(paste, "[seqwrite]{enter}rw=write{enter}bs=1m");
    const job = await within(form).findByRole("group", { name: "Job 1: seqwrite" }, { timeout: 3_000 });
    // The API's reading, in bytes: what fio will use whatever its kb_base.
    expect(within(job).getByLabelText("bs")).toHaveValue("1048576");
    await waitFor(() => expect(within(job).getByLabelText("bs")).toHaveAccessibleDescription("fio reads 1,048,576 bytes"));
    expect(within(job).getByText("fsync=1")).toBeInTheDocument();
    // Saving is allowed, but the run-start rules are said now rather than at the first run.
    const refusals = within(form).getByRole("note", { name: "Runs will refuse" });
    expect(refusals).toHaveTextContent("[seqwrite] runtime: not set: runs refuse jobs without a runtime");
    expect(refusals).toHaveTextContent("[seqwrite] size: not set: runs on directory targets need a size");

    await user.clear(within(job).getByLabelText("iodepth"));
    await user.type(within(job).getByLabelText("iodepth"), "16");
    await user.type(within(form).getByLabelText("Plan name"), "NAS seq write");
    await user.click(within(form).getByRole("button", { name: "Save plan" }));

    expect(await within(form).findByRole("status")).toHaveTextContent("Plan NAS seq write saved.");
    expect(api.callsTo("POST /api/v1/plans")[0]?.body).toEqual({
      name: "NAS seq write",
      jobs: [{ name: "seqwrite", rw: "write", bs: 1048576, iodepth: 16, direct: true, fsync: 1 }],
      shared_files: false,
    });
  });

  it("says how a pasted vendor command was read (a rejoined option, a shell variable)", async () => {
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/plans": { body: page([]) },
      "GET /api/v1/presets": { body: page([makePreset()]) },
      "POST /api/v1/fio/validate": {
        body: {
          jobs: [makeFioJob({ name: "seqread", rw: "read", bs: 1048576, iodepth: 64, runtime: 60 })],
          notices: [
            { option: "runtime", value: "60", message: "rejoined from 'run' and 'time' broken across two lines" },
            { option: "iodepth", value: "$DEPTH", message: "the shell variable DEPTH set earlier in the paste: 64" },
          ],
        },
      },
      "POST /api/v1/fio/validate-jobs": echoValidation,
    });
    const { user } = renderApp("/plans");
    const form = await screen.findByRole("form", { name: "New plan" });
    await user.type(within(form).getByLabelText("fio job file or command line"), "$ fio -name=seqread -rw=read");
    const notices = await within(form).findByRole("list", { name: "How the paste was read" }, { timeout: 3_000 });
    expect(notices).toHaveTextContent("Read as: runtime=60 — rejoined from 'run' and 'time' broken across two lines");
    expect(notices).toHaveTextContent("iodepth=$DEPTH — the shell variable DEPTH set earlier in the paste: 64");
  });

  it("saves a plan whose hosts share one set of files, and lists it as such", async () => {
    let saved: Plan[] = [makePlan({ id: 5, name: "4k random read" })];
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/plans": () => ({ body: page(saved) }),
      "GET /api/v1/presets": { body: page([makePreset()]) },
      "POST /api/v1/fio/validate-jobs": echoValidation,
      "POST /api/v1/plans": (request) => {
        const plan = makePlan({ ...(request.body as object), id: 78 });
        saved = [...saved, plan];
        return { status: 201, body: plan };
      },
    });
    const { user } = renderApp("/plans");
    const form = await screen.findByRole("form", { name: "New plan" });
    await within(form).findByRole("option", { name: "Max IOPS (iops, linux)" });
    const plans = await screen.findByRole("table", { name: "Saved plans" });
    const own = within(plans).getByRole("row", { name: /4k random read/ });
    expect(own).toHaveTextContent("each host its own");

    await user.selectOptions(within(form).getByLabelText("Preset"), "Max IOPS (iops, linux)");
    const shared = within(form).getByRole("checkbox", { name: "Hosts share one set of files" });
    expect(shared).not.toBeChecked();
    expect(shared).toHaveAccessibleDescription(/Off: each host writes its own files.*On: all hosts work on the same files, laid out once\./);
    await user.click(shared);
    await user.click(within(form).getByRole("button", { name: "Save plan" }));

    expect(await within(form).findByRole("status")).toHaveTextContent("Plan Max IOPS saved.");
    expect(api.callsTo("POST /api/v1/plans")[0]?.body).toMatchObject({ name: "Max IOPS", shared_files: true });
    expect(await within(plans).findByRole("row", { name: /Max IOPS/ })).toHaveTextContent("one set shared by all hosts");
    // The form is ready for the next plan, back to each host its own.
    expect(within(form).getByRole("checkbox", { name: "Hosts share one set of files" })).not.toBeChecked();
  });

  it("starts from a preset, showing what it measures and the expected figures", async () => {
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/plans": { body: page([]) },
      "GET /api/v1/presets": { body: page([makePreset()]) },
      "POST /api/v1/fio/validate-jobs": echoValidation,
    });
    const { user } = renderApp("/plans");
    const form = await screen.findByRole("form", { name: "New plan" });
    await within(form).findByRole("option", { name: "Max IOPS (iops, linux)" });

    await user.selectOptions(within(form).getByLabelText("Preset"), "Max IOPS (iops, linux)");

    expect(within(form).getByText("measures iops")).toBeInTheDocument();
    const expected = within(form).getByRole("table", { name: "Publisher's expected figures" });
    expect(expected).toHaveTextContent("100,000 IOPS");
    const job = within(form).getByRole("group", { name: "Job 1: randread" });
    expect(within(job).getByLabelText("iodepth")).toHaveValue(64);
    expect(within(job).getByLabelText("ioengine")).toHaveValue("libaio");
    expect(within(job).getByRole("checkbox", { name: /direct/ })).toBeChecked();
    expect(within(form).getByLabelText("Plan name")).toHaveValue("Max IOPS");
  });

  it("shows the byte counts the API reads from sizes as typed (1MiB is 1,000,000 bytes to fio), and saves the text typed", async () => {
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/plans": { body: page([]) },
      "GET /api/v1/presets": { body: page([]) },
      // The API's real answer (src/test/fixtures/validate-jobs-sizes.json) to the job this test types.
      "POST /api/v1/fio/validate-jobs": (request) =>
        isDeepStrictEqual(request.body, realSizesValidation.request)
          ? { body: realSizesValidation.response }
          : { status: 422, body: { code: "validation_error", message: "not the recorded job" } },
      "POST /api/v1/plans": (request) => ({ status: 201, body: makePlan({ ...(request.body as object), id: 79 }) }),
    });
    const { user } = renderApp("/plans");
    const form = await screen.findByRole("form", { name: "New plan" });

    await user.click(within(form).getByRole("button", { name: "Add job" }));
    const job = within(form).getByRole("group", { name: "Job 1: job1" });
    await user.clear(within(job).getByLabelText("size"));
    await user.type(within(job).getByLabelText("size"), "1MiB");

    await waitFor(() => expect(within(job).getByLabelText("size")).toHaveAccessibleDescription("fio reads 1,000,000 bytes"), {
      timeout: 3_000,
    });
    expect(within(job).getByLabelText("bs")).toHaveAccessibleDescription("fio reads 4,096 bytes");
    expect(within(job).getByText(/As fio will run it:/)).toHaveTextContent("bs=4k iodepth=32 numjobs=1 size=1000000 runtime=60s");

    await user.type(within(form).getByLabelText("Plan name"), "1 MiB file");
    await user.click(within(form).getByRole("button", { name: "Save plan" }));
    expect(await within(form).findByRole("status")).toHaveTextContent("Plan 1 MiB file saved.");
    expect(api.callsTo("POST /api/v1/plans")[0]?.body).toMatchObject({ jobs: [realSizesValidation.request.jobs[0]] });
  });

  it("shows the API's reason next to each option it refuses", async () => {
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/plans": { body: page([]) },
      "GET /api/v1/presets": { body: page([]) },
      // The API's real refusal (src/test/fixtures/validate-jobs-rejected.json) of the job this test types.
      "POST /api/v1/fio/validate-jobs": (request) =>
        isDeepStrictEqual(request.body, realRejectedValidation.request)
          ? { status: realRejectedValidation.status, body: realRejectedValidation.response }
          : echoValidation(request),
    });
    const { user } = renderApp("/plans");
    const form = await screen.findByRole("form", { name: "New plan" });

    await user.click(within(form).getByRole("button", { name: "Add job" }));
    const job = within(form).getByRole("group", { name: "Job 1: job1" });
    await user.clear(within(job).getByLabelText("size"));
    await user.type(within(job).getByLabelText("size"), "1MiB");
    await user.clear(within(job).getByLabelText("bs"));
    await user.type(within(job).getByLabelText("bs"), "4q");
    await user.clear(within(job).getByLabelText("iodepth"));
    await user.type(within(job).getByLabelText("iodepth"), "0");

    await waitFor(() => expect(within(job).getByLabelText("bs")).toHaveAccessibleDescription("unknown size unit 'q'"), {
      timeout: 3_000,
    });
    expect(within(job).getByLabelText("bs")).toBeInvalid();
    expect(within(job).getByLabelText("iodepth")).toHaveAccessibleDescription("Input should be greater than or equal to 1");
    expect(within(form).getByRole("alert")).toHaveTextContent("fio would reject these jobs");
  });
});
