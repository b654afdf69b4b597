import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Schema } from "../../../lib/api/types";
import { fakeRoutes, installFakeApi } from "../../../test/fake-api";
import { page, shellRoutes } from "../../../test/factories";
import { realPresets } from "../../../test/fixtures";
import { renderApp } from "../../../test/render-app";

// GET /api/v1/presets as the real API answers it (src/test/fixtures/presets.json, recorded from the app).
function routes() {
  return fakeRoutes({
    ...shellRoutes(),
    "GET /api/v1/plans": { body: page([]) },
    "GET /api/v1/presets": { body: realPresets },
  });
}

describe("presets from the real API", () => {
  it("lists every preset with its published figures and the jobs fio will run, nothing undefined", async () => {
    installFakeApi(routes());
    renderApp("/plans");

    const table = await screen.findByRole("table", { name: "Presets" });
    expect(within(table).getAllByRole("row").length).toBeGreaterThan(realPresets.items.length);
    expect(table).not.toHaveTextContent(/undefined|null|NaN|\[object/);

    const nasRead = within(table).getByRole("row", { name: /^NAS random read IOPS \(Linux\)/ });
    expect(nasRead).toHaveTextContent("14,000 IOPS");
    // The jobs as the API sends them (the publisher's [global] section folded in), sizes as written.
    expect(nasRead).toHaveTextContent("[nas-randread-iops] rw=randread bs=4k iodepth=128 numjobs=1 size=1G");
    expect(nasRead).toHaveTextContent("direct=1 ioengine=libaio");

    const throughput = within(table).getByRole("row", { name: /^NAS random read throughput \(Linux\)/ });
    expect(throughput).toHaveTextContent("150 MB/s (143 MiB/s) (capacity type); 300 MB/s (286 MiB/s) (performance type)");
    const quickStart = within(table).getByRole("row", { name: /^4 KiB random read IOPS/ });
    expect(within(quickStart).getAllByRole("cell").at(-1)).toHaveTextContent("—");
  });

  it("shows a chosen preset's published figures in the plan form", async () => {
    installFakeApi({
      ...routes(),
      // The preset's jobs, loaded unchanged, are already normalised: the API answers them as they are.
      "POST /api/v1/fio/validate-jobs": (request) => ({ body: request.body as Schema<"JobsOut"> }),
    });
    const { user } = renderApp("/plans");
    const form = await screen.findByRole("form", { name: "New plan" });
    await within(form).findByRole("option", { name: "NAS random read throughput (Linux) (throughput, linux)" });

    await user.selectOptions(within(form).getByLabelText("Preset"), "NAS random read throughput (Linux) (throughput, linux)");

    const expected = within(form).getByRole("table", { name: "Publisher's expected figures" });
    expect(within(expected).getByRole("row", { name: /150 MB\/s/ })).toHaveTextContent("capacity type");
    expect(within(expected).getByRole("row", { name: /300 MB\/s/ })).toHaveTextContent("performance type");
    expect(expected).not.toHaveTextContent("undefined");
  });
});
