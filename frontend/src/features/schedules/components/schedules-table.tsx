import { slotText } from "./slot-text";
import { Fragment, useState } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { ConfirmAction } from "../../../components/ui/confirm-action";
import { formatDateTime } from "../../../lib/format";
import { useDeleteSchedule } from "../api/delete-schedule";
import type { Schedule } from "../api/list-schedules";
import { useUpdateSchedule } from "../api/update-schedule";
import { FiringBadge } from "./firing-badge";
import { FiringsList } from "./firings-list";

/** What a schedule runs where and when, its next slots and what became of the last one. */
function ScheduleCells({ schedule }: { schedule: Schedule }) {
  return (
    <>
      <th scope="row">
        {schedule.name}
        {schedule.label ? <div className="small muted">label: {schedule.label}</div> : null}
      </th>
      <td>
        {schedule.plan.name ?? `plan #${schedule.plan.id}`} on {schedule.target.name ?? `target #${schedule.target.id}`}
        {schedule.repetitions > 1 ? <div className="small muted">{schedule.repetitions} repetitions</div> : null}
      </td>
      <td>
        <code>{schedule.cron}</code> <span className="small muted">{schedule.timezone}</span>
      </td>
      <td>
        {schedule.enabled ? (
          <ul className="plain-list small" aria-label={`Next slots of ${schedule.name}`}>
            {schedule.next_slots.map((slot) => (
              <li key={slot.at}>
                <time dateTime={slot.at} title={`${formatDateTime(slot.at)} your local time (UTC${slot.utc_offset} in ${slot.timezone})`}>
                  {slotText(slot)}
                </time>
              </li>
            ))}
          </ul>
        ) : (
          <span className="badge badge-muted">disabled</span>
        )}
      </td>
      <td>
        {schedule.last_firing ? (
          <>
            <FiringBadge status={schedule.last_firing.status} />{" "}
            <time className="small" dateTime={schedule.last_firing.slot_at}>
              {formatDateTime(schedule.last_firing.slot_at)}
            </time>
          </>
        ) : (
          <span className="muted small">none yet</span>
        )}
        {schedule.missed_total > 0 ? (
          <div className="small">
            <strong>{schedule.missed_total}</strong> slot{schedule.missed_total === 1 ? "" : "s"} missed or refused
          </div>
        ) : null}
      </td>
    </>
  );
}

/** Enable or disable a schedule, and delete it after a confirmation (editors only). */
function ScheduleEditActions({
  schedule,
  updateMutation,
  deleteMutation,
}: {
  schedule: Schedule;
  updateMutation: ReturnType<typeof useUpdateSchedule>;
  deleteMutation: ReturnType<typeof useDeleteSchedule>;
}) {
  return (
    <>
      <button
        type="button"
        className="button button-small"
        aria-label={`${schedule.enabled ? "Disable" : "Enable"} ${schedule.name}`}
        disabled={updateMutation.isPending}
        onClick={() => updateMutation.mutate({ id: schedule.id, body: { enabled: !schedule.enabled } })}
      >
        {schedule.enabled ? "Disable" : "Enable"}
      </button>
      <ConfirmAction
        label="Delete"
        name={`Delete ${schedule.name}`}
        groupLabel={`Confirm deleting ${schedule.name}`}
        question={
          <>
            Delete <strong>{schedule.name}</strong>? The runs it started stay.
          </>
        }
        confirmLabel="Delete schedule"
        disabled={deleteMutation.isPending}
        onConfirm={() => deleteMutation.mutate(schedule.id)}
      />
    </>
  );
}

/** The team's schedules: what runs where and when, the next slots, and what became of the last ones. */
export function SchedulesTable({ schedules, canEdit }: { schedules: Schedule[]; canEdit: boolean }) {
  const [open, setOpen] = useState<number | null>(null);
  const updateMutation = useUpdateSchedule();
  const deleteMutation = useDeleteSchedule();
  return (
    <>
      {updateMutation.error ? <ApiErrorAlert error={updateMutation.error} title="Could not change the schedule" /> : null}
      {deleteMutation.error ? <ApiErrorAlert error={deleteMutation.error} title="Could not delete the schedule" /> : null}
      <div className="table-scroll">
        <table className="table">
          <caption className="sr-only">Schedules</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Plan on target</th>
              <th scope="col">When</th>
              <th scope="col">Next slots</th>
              <th scope="col">Last slot</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {schedules.map((schedule) => (
              <Fragment key={schedule.id}>
                <tr>
                  <ScheduleCells schedule={schedule} />
                  <td>
                    <div className="button-row">
                      <button
                        type="button"
                        className="button button-small"
                        aria-expanded={open === schedule.id}
                        aria-label={`Firings of ${schedule.name}`}
                        onClick={() => setOpen(open === schedule.id ? null : schedule.id)}
                      >
                        Firings
                      </button>
                      {canEdit ? (
                        <ScheduleEditActions schedule={schedule} updateMutation={updateMutation} deleteMutation={deleteMutation} />
                      ) : null}
                    </div>
                  </td>
                </tr>
                {open === schedule.id ? (
                  <tr>
                    <td colSpan={6}>
                      <FiringsList scheduleId={schedule.id} name={schedule.name} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
