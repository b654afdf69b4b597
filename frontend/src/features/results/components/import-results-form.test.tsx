import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { makeResult, makeTarget, page, resultPage, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

function routes() {
  return {
    ...shellRoutes(),
    "GET /api/v1/targets": { body: page([makeTarget({ id: 3, name: "netapp-vol1", storage_class: "nfs" })]) },
    "GET /api/v1/results": { body: resultPage([]) },
  };
}

function fioFile(text = '{"fio version": "fio-3.36", "jobs": []}', name = "nas-randread.json") {
  return new File([text], name, { type: "application/json" });
}

describe("import fio output", () => {
  it("uploads the file with its labels, says what was stored and refreshes the history", async () => {
    const stored = makeResult({ id: 31, run_id: null, imported: true, label: "old-filer", storage_class: "NAS capacity", host_name: "legacy-client" });
    const api = installFakeApi({
      ...routes(),
      "POST /api/v1/results/import": { status: 201, body: { source_format: "json+", fio_version: "fio-3.36", results: [stored] } },
    });
    const { user } = renderApp("/results");
    const form = await screen.findByRole("form", { name: "Import fio output" });
    expect(screen.getByRole("region", { name: "Import fio output" })).toContainElement(form);
    await within(form).findByRole("option", { name: /netapp-vol1/ });
    expect(await screen.findByText("No results match these filters.")).toBeInTheDocument();

    api.on("GET /api/v1/results", { body: resultPage([stored]) });
    await user.upload(within(form).getByLabelText("fio output file"), fioFile());
    await user.selectOptions(within(form).getByLabelText(/Target/), "netapp-vol1 (nfs-client-01:/mnt/netapp/bench)");
    await user.type(within(form).getByLabelText(/Storage class/), "NAS capacity");
    await user.type(within(form).getByLabelText(/Host name/), "legacy-client");
    await user.type(within(form).getByLabelText(/Label/), "old-filer");
    await user.click(within(form).getByRole("button", { name: "Import" }));

    const summary = await within(form).findByRole("status");
    expect(summary).toHaveTextContent("Imported 1 result from fio JSON+ (with latency histograms) (fio-3.36).");
    expect(summary).toHaveTextContent("randread on legacy-client · old-filer · NAS capacity: read 15.3k IOPS");

    const [call] = api.callsTo("POST /api/v1/results/import");
    const sent = call?.body as FormData;
    expect(sent).toBeInstanceOf(FormData);
    expect((sent.get("file") as File).name).toBe("nas-randread.json");
    expect((sent.get("file") as File).size).toBe(fioFile().size);
    expect(Object.fromEntries([...sent.entries()].filter(([key]) => key !== "file"))).toEqual({
      target_id: "3",
      storage_class: "NAS capacity",
      host_name: "legacy-client",
      label: "old-filer",
    });
    expect(call?.headers["Content-Type"]).toBeUndefined();

    const history = await screen.findByRole("table", { name: "Result history" });
    expect(within(history).getByRole("row", { name: /legacy-client/ })).toHaveTextContent("imported");
  });

  it("shows the server's reason when it cannot read the file", async () => {
    const api = installFakeApi({
      ...routes(),
      "POST /api/v1/results/import": {
        status: 422,
        body: { code: "validation_error", message: "fio output could not be read: unexpected end of JSON (line 1, char 49)" },
      },
    });
    const { user } = renderApp("/results");
    const form = await screen.findByRole("form", { name: "Import fio output" });

    await user.upload(within(form).getByLabelText("fio output file"), fioFile('{"fio version": "fio-3.33", "jobs": [ {"jobname": ', "cut.json"));
    await user.click(within(form).getByRole("button", { name: "Import" }));

    expect(await within(form).findByRole("alert")).toHaveTextContent(
      "Not imported: fio output could not be read: unexpected end of JSON (line 1, char 49)",
    );
    expect(within(form).queryByRole("status")).not.toBeInTheDocument();
    expect(Object.fromEntries((api.callsTo("POST /api/v1/results/import")[0]?.body as FormData).entries())).toHaveProperty("file");
  });

  it("shows the server's message for a file over its size limit", async () => {
    installFakeApi({
      ...routes(),
      "POST /api/v1/results/import": { status: 413, body: { code: "too_large", message: "the file is larger than 32 MiB" } },
    });
    const { user } = renderApp("/results");
    const form = await screen.findByRole("form", { name: "Import fio output" });

    await user.upload(within(form).getByLabelText("fio output file"), fioFile());
    await user.click(within(form).getByRole("button", { name: "Import" }));

    expect(await within(form).findByRole("alert")).toHaveTextContent("the file is larger than 32 MiB");
  });
});
