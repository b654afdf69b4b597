import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Schema } from "../../../lib/api/types";
import { installFakeApi } from "../../../test/fake-api";
import { makePlan, makeTarget, page, shellRoutes } from "../../../test/factories";
import { renderApp } from "../../../test/render-app";

type Schedule = Schema<"ScheduleOut">;

function makeSchedule(overrides: Partial<Schedule> = {}): Schedule {
  return {
    id: 4,
    name: "nightly NAS",
    plan: { id: 5, name: "4k random read" },
    target: { id: 3, name: "netapp-vol1" },
    cron: "0 2 * * *",
    timezone: "Europe/Berlin",
    enabled: true,
    label: "nightly",
    repetitions: 3,
    host_ids: [],
    created_by: "ana@example.com",
    next_fire_at: "2026-11-24T01:00:00Z",
    next_fire_times: ["2026-11-24T01:00:00Z", "2026-11-25T01:00:00Z", "2026-11-26T01:00:00Z"],
    next_slots: ["2026-11-24", "2026-11-25", "2026-11-26"].map((day) => ({
      at: `${day}T02:00:00+01:00`,
      timezone: "Europe/Berlin",
      abbreviation: "CET",
      utc_offset: "+01:00",
    })),
    last_firing: null,
    missed_total: 0,
    created_at: "2026-11-20T10:00:00Z",
    updated_at: "2026-11-20T10:00:00Z",
    ...overrides,
  };
}

const SLOW = { timeout: 8000 };
const SLOT_TIMES = ["2026-11-24T02:00:00Z", "2026-11-25T02:00:00Z", "2026-11-26T02:00:00Z"];
const SLOTS = {
  cron: "0 2 * * *",
  timezone: "UTC",
  next_fire_times: SLOT_TIMES,
  next_slots: SLOT_TIMES.map((iso) => ({ at: iso.replace("Z", "+00:00"), timezone: "UTC", abbreviation: "UTC", utc_offset: "+00:00" })),
};

describe("Schedules page", () => {
  it("creates a schedule after showing its next three slots", async () => {
    const api = installFakeApi({
      ...shellRoutes({ role: "member" }),
      "GET /api/v1/schedules": { body: page([]) },
      "GET /api/v1/plans": { body: page([makePlan({ id: 5, name: "4k random read" })]) },
      "GET /api/v1/targets": { body: page([makeTarget({ id: 3, name: "netapp-vol1" })]) },
      "GET /api/v1/schedules/next-slots": { body: SLOTS },
      "POST /api/v1/schedules": { status: 201, body: makeSchedule() },
    });
    const { user } = renderApp("/schedules");

    const form = await screen.findByRole("form", { name: "New schedule" }, SLOW);
    await waitFor(() => expect(document.title).toBe("Schedules · storbench"));
    await user.type(within(form).getByLabelText("Name"), "nightly NAS");
    await within(form).findByRole("option", { name: "4k random read" }, SLOW);
    await user.selectOptions(within(form).getByLabelText("Plan"), "5");
    await within(form).findByRole("option", { name: "netapp-vol1" }, SLOW);
    await user.selectOptions(within(form).getByLabelText("Target"), "3");
    await user.clear(within(form).getByLabelText("Timezone"));
    await user.type(within(form).getByLabelText("Timezone"), "Europe/Berlin");
    await user.clear(within(form).getByLabelText("Repetitions"));
    await user.type(within(form).getByLabelText("Repetitions"), "3");
    await waitFor(() => expect(within(form).getByRole("status", { name: "Next slots" })).toHaveTextContent(/Next: .*, .*, /), SLOW);
    await user.click(within(form).getByRole("button", { name: "Create schedule" }));

    await waitFor(() => expect(api.callsTo("POST /api/v1/schedules")).toHaveLength(1), SLOW);
    expect(api.callsTo("POST /api/v1/schedules")[0]?.body).toEqual({
      name: "nightly NAS",
      plan_id: 5,
      target_id: 3,
      cron: "0 2 * * *",
      timezone: "Europe/Berlin",
      label: null,
      repetitions: 3,
    });
  }, 30_000);

  it("shows a bad cron expression's reason at the field", async () => {
    installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/schedules": { body: page([]) },
      "GET /api/v1/plans": { body: page([]) },
      "GET /api/v1/targets": { body: page([]) },
      "GET /api/v1/schedules/next-slots": {
        status: 422,
        body: { code: "invalid", message: "cron '0 25 * * *' cannot be read: Bad hour", errors: [{ field: "cron", value: "0 25 * * *", reason: "Bad hour" }] },
      },
    });
    const { user } = renderApp("/schedules");
    const form = await screen.findByRole("form", { name: "New schedule" }, SLOW);
    await user.clear(within(form).getByLabelText("Cron expression"));
    await user.type(within(form).getByLabelText("Cron expression"), "0 25 * * *");
    expect(await within(form).findByText("Bad hour", {}, SLOW)).toBeInTheDocument();
    expect(within(form).getByLabelText("Cron expression")).toHaveAttribute("aria-invalid", "true");
  }, 30_000);

  it("lists schedules with their next slots, disables one and shows missed slots in its firings", async () => {
    const lastFiring: Schema<"FiringOut"> = {
      id: 9, slot_at: "2026-11-23T01:00:00Z", status: "started", reason: null, missed_count: 1, run_id: 71, created_at: "2026-11-23T01:00:02Z",
    };
    const schedule = makeSchedule({ missed_total: 4, last_firing: lastFiring });
    const api = installFakeApi({
      ...shellRoutes(),
      "GET /api/v1/schedules": { body: page([schedule]) },
      "GET /api/v1/plans": { body: page([]) },
      "GET /api/v1/targets": { body: page([]) },
      "GET /api/v1/schedules/next-slots": { body: SLOTS },
      "PATCH /api/v1/schedules/4": { body: { ...schedule, enabled: false, next_fire_times: [] } },
      "GET /api/v1/schedules/4/firings": {
        body: {
          items: [
            lastFiring,
            { id: 8, slot_at: "2026-11-22T01:00:00Z", status: "missed", reason: "no scheduler ran at this time", missed_count: 3, run_id: null, created_at: "2026-11-23T01:00:02Z" },
            { id: 7, slot_at: "2026-11-18T01:00:00Z", status: "failed", reason: "the run was refused: host offline", missed_count: 1, run_id: null, created_at: "2026-11-18T01:00:01Z" },
          ],
        },
      },
    });
    const { user } = renderApp("/schedules");

    const row = await screen.findByRole("row", { name: /nightly NAS/ }, SLOW);
    expect(within(row).getByRole("list", { name: "Next slots of nightly NAS" }).querySelectorAll("li")).toHaveLength(3);
    // Slots read in the schedule's own zone, named.
    expect(within(row).getByRole("list", { name: "Next slots of nightly NAS" })).toHaveTextContent("2026-11-24 02:00 CET");
    expect(row).toHaveTextContent("4 slots missed or refused");
    expect(row).toHaveTextContent("3 repetitions");

    await user.click(within(row).getByRole("button", { name: "Firings of nightly NAS" }));
    const firings = await screen.findByRole("table", { name: "Firings of nightly NAS" }, SLOW);
    expect(within(firings).getByRole("link", { name: "Run #71" })).toHaveAttribute("href", "/runs/71");
    expect(within(firings).getByRole("row", { name: /missed ×3 no scheduler ran/ })).toBeInTheDocument();
    expect(within(firings).getByRole("row", { name: /failed the run was refused: host offline/ })).toBeInTheDocument();

    await user.click(within(row).getByRole("button", { name: "Disable nightly NAS" }));
    await waitFor(() => expect(api.callsTo("PATCH /api/v1/schedules/4")[0]?.body).toEqual({ enabled: false }), SLOW);
  }, 30_000);

  it("lets a viewer read schedules but not create them", async () => {
    installFakeApi({
      ...shellRoutes({ role: "viewer" }),
      "GET /api/v1/schedules": { body: page([makeSchedule()]) },
    });
    renderApp("/schedules");
    const row = await screen.findByRole("row", { name: /nightly NAS/ }, SLOW);
    expect(within(row).queryByRole("button", { name: /Disable/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "New schedule" })).not.toBeInTheDocument();
    expect(screen.getByText(/not create schedules/)).toBeInTheDocument();
  }, 30_000);
});
