import { slotText } from "./slot-text";
import { memo, useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import { fieldErrors } from "../../../lib/api-client";
import type { Plan, Target } from "../../../lib/api/types";
import { formatDateTime } from "../../../lib/format";
import { useDebounced } from "../../../lib/use-debounced";
import { useCreateSchedule } from "../api/create-schedule";
import { useNextSlots } from "../api/next-slots";

const FIELDS = ["name", "plan_id", "target_id", "cron", "timezone", "label", "repetitions"] as const;

function browserTimezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

function knownTimezones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  try {
    return intl.supportedValuesOf ? intl.supportedValuesOf("timeZone") : [];
  } catch {
    return [];
  }
}

/** The IANA names the browser knows, offered while typing (rendered once: there are hundreds). */
const TimezoneOptions = memo(function TimezoneOptions({ id }: { id: string }) {
  return (
    <datalist id={id}>
      {knownTimezones().map((zone) => (
        <option key={zone} value={zone} />
      ))}
    </datalist>
  );
});

interface NewScheduleFormProps {
  /** The plans and targets to choose from (the page lists them). */
  plans: Plan[];
  targets: Target[];
}

type FieldErrors = Record<string, string[]>;

/** What runs where: the plan and the target. */
function PlanTargetFields({
  plans,
  targets,
  planId,
  setPlanId,
  targetId,
  setTargetId,
  errors,
}: NewScheduleFormProps & {
  planId: string;
  setPlanId: (value: string) => void;
  targetId: string;
  setTargetId: (value: string) => void;
  errors: FieldErrors;
}) {
  return (
    <>
      <FormField label="Plan" errors={errors.plan_id}>
        {(control) => (
          <select {...control} required value={planId} onChange={(event) => setPlanId(event.target.value)}>
            <option value="">Choose a plan</option>
            {plans.map((plan) => (
              <option key={plan.id} value={plan.id}>
                {plan.name}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField label="Target" errors={errors.target_id}>
        {(control) => (
          <select {...control} required value={targetId} onChange={(event) => setTargetId(event.target.value)}>
            <option value="">Choose a target</option>
            {targets.map((target) => (
              <option key={target.id} value={target.id}>
                {target.name}
              </option>
            ))}
          </select>
        )}
      </FormField>
    </>
  );
}

/** When it runs: cron and timezone, with the next slots the API reads from them while typing. */
function WhenFields({
  cron,
  setCron,
  timezone,
  setTimezone,
  errors,
}: {
  cron: string;
  setCron: (value: string) => void;
  timezone: string;
  setTimezone: (value: string) => void;
  errors: FieldErrors;
}) {
  const preview = useNextSlots(useDebounced(cron, 300), useDebounced(timezone, 300));
  const previewErrors = fieldErrors(preview.error, ["cron", "timezone"]);
  return (
    <>
      <FormField
        label="Cron expression"
        errors={[...(errors.cron ?? []), ...(previewErrors.cron ?? [])]}
        hint={
          <>
            Five fields: minute hour day-of-month month day-of-week. <code>0 2 * * *</code> is every day at 02:00,{" "}
            <code>30 6 * * 1-5</code> weekdays at 06:30.
          </>
        }
      >
        {(control) => (
          <input {...control} className="mono" required maxLength={120} value={cron} onChange={(event) => setCron(event.target.value)} />
        )}
      </FormField>
      <FormField
        label="Timezone"
        errors={[...(errors.timezone ?? []), ...(previewErrors.timezone ?? [])]}
        hint="IANA name, e.g. Europe/Berlin. Daylight-saving changes are handled as cron does."
      >
        {(control) => (
          <>
            <input
              {...control}
              required
              list="schedule-timezones"
              maxLength={64}
              value={timezone}
              onChange={(event) => setTimezone(event.target.value)}
            />
            <TimezoneOptions id="schedule-timezones" />
          </>
        )}
      </FormField>
      <div role="status" aria-label="Next slots" className="small">
        {preview.data && !preview.error ? (
          <>
            Next: {preview.data.next_slots.map(slotText).join(", ")}{" "}
            <span className="muted">({preview.data.timezone}; your local time: {preview.data.next_fire_times.map((iso) => formatDateTime(iso)).join(", ")})</span>
          </>
        ) : null}
      </div>
    </>
  );
}

/** Create a schedule: a plan on a target at cron slots in a timezone, with its next three slots shown. */
export function NewScheduleForm({ plans, targets }: NewScheduleFormProps) {
  const [name, setName] = useState("");
  const [planId, setPlanId] = useState("");
  const [targetId, setTargetId] = useState("");
  const [cron, setCron] = useState("0 2 * * *");
  const [timezone, setTimezone] = useState(browserTimezone);
  const [label, setLabel] = useState("");
  const [repetitions, setRepetitions] = useState("1");
  const createMutation = useCreateSchedule();
  const errors = fieldErrors(createMutation.error, FIELDS);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    createMutation.mutate(
      {
        name: name.trim(),
        plan_id: Number(planId),
        target_id: Number(targetId),
        cron: cron.trim(),
        timezone: timezone.trim(),
        label: label.trim() === "" ? null : label.trim(),
        repetitions: Number(repetitions),
      },
      { onSuccess: () => setName("") },
    );
  }

  return (
    <section className="panel" aria-labelledby="new-schedule-heading">
      <h2 id="new-schedule-heading">New schedule</h2>
      <form className="form" aria-labelledby="new-schedule-heading" onSubmit={handleSubmit}>
        {createMutation.error ? <ApiErrorAlert error={createMutation.error} inlineFields={FIELDS} /> : null}
        <FormField label="Name" errors={errors.name}>
          {(control) => (
            <input {...control} required maxLength={120} value={name} onChange={(event) => setName(event.target.value)} />
          )}
        </FormField>
        <PlanTargetFields
          plans={plans}
          targets={targets}
          planId={planId}
          setPlanId={setPlanId}
          targetId={targetId}
          setTargetId={setTargetId}
          errors={errors}
        />
        <WhenFields cron={cron} setCron={setCron} timezone={timezone} setTimezone={setTimezone} errors={errors} />
        <FormField label="Run label" optional errors={errors.label} hint="Given to every run it starts.">
          {(control) => (
            <input {...control} maxLength={200} value={label} onChange={(event) => setLabel(event.target.value)} />
          )}
        </FormField>
        <FormField label="Repetitions" errors={errors.repetitions} hint="1 to 100 runs of the jobs in a row, each result numbered.">
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              max={100}
              required
              value={repetitions}
              onChange={(event) => setRepetitions(event.target.value)}
            />
          )}
        </FormField>
        <button type="submit" className="button button-primary" disabled={createMutation.isPending}>
          Create schedule
        </button>
      </form>
    </section>
  );
}
