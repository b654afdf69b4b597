import { useEffect, useRef, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import { RunRequirementsNote } from "../../../components/ui/run-requirements-note";
import { SharedFilesField } from "../../../components/ui/shared-files-field";
import { fieldErrors } from "../../../lib/api-client";
import type { Preset } from "../../../lib/api/types";
import { describeJob, runRequirements } from "../../../lib/fio";
import { formatSpecFigure } from "../../../lib/format";
import { useRunCheck } from "../api/check-run";
import { useCreateRun } from "../api/create-run";
import { useSweepPresets } from "../api/list-sweep-presets";
import type { RunCreate } from "../../../lib/api/types";
import { DestructiveConfirm } from "./destructive-confirm";
import { MoreHostsField } from "./more-hosts-field";
import { RunCheckSummary } from "./run-check-summary";
import { resolveRun, type ResolvedRun, type RunChoices, type RunOptions } from "./run-choices";
import { RunSourceFields } from "./run-source-fields";
import { NO_SWEEP, SweepFields, sweepBody, type SweepChoice } from "./sweep-fields";

const INLINE_FIELDS: readonly string[] = [
  "target_id", "plan_id", "preset_id", "host_ids", "host_label", "label", "note", "repetitions",
  "sweep", "sweep.0.option", "sweep.0.values", "sweep_stop.above_ns",
];

const NO_CHOICES: RunChoices = {
  targetId: "",
  planChoice: "",
  extraHostIds: [],
  hostLabel: "",
  sharedFilesChoice: null,
  confirmedFor: null,
};

type Missing = { target?: string; plan?: string; confirm?: string };

/** A target and a plan or preset chosen before the form opens (the dashboard's quick start). */
export type InitialRunChoices = Partial<Pick<RunChoices, "targetId" | "planChoice">>;

interface StartRunFormProps extends Omit<RunOptions, "hosts"> {
  hosts?: RunOptions["hosts"];
  headingLevel?: 2 | 3;
  /** Choices the form opens with; it then takes the focus to its Start run button. */
  initial?: InitialRunChoices;
}

/** The form's state: the choices, what they make, the run's own fields, and sending it. */
function useStartRun(options: RunOptions, initial: InitialRunChoices = {}) {
  const [choices, setChoices] = useState<RunChoices>({ ...NO_CHOICES, ...initial });
  const [details, setDetails] = useState({ label: "", note: "", repetitions: "1" });
  const [missing, setMissing] = useState<Missing>({});
  const [sweep, setSweep] = useState<SweepChoice>(NO_SWEEP);
  const sweepPresets = useSweepPresets().data?.items ?? [];
  const navigate = useNavigate();
  const createMutation = useCreateRun();
  const resolved = resolveRun(choices, options);
  const sweepPreset = sweepPresets.find((preset) => preset.id === sweep.presetId);
  // A sweep preset's job runs when no plan or preset is chosen.
  const base: RunCreate | null =
    resolved.body ?? (sweepPreset && resolved.target ? { target_id: resolved.target.id, jobs: sweepPreset.jobs as RunCreate["jobs"] } : null);
  const run = { ...resolved, body: base ? { ...base, ...sweepBody(sweep) } : null };
  const check = useRunCheck(run.body);
  const inlineFields = run.asksSharedFiles ? [...INLINE_FIELDS, "shared_files"] : INLINE_FIELDS;

  function submit() {
    const problems: Missing = {
      target: run.target ? undefined : "Choose a target.",
      plan: run.plan || run.preset || sweepPreset ? undefined : "Choose a plan or preset.",
      confirm: run.needsConfirm && !run.confirmed ? "Confirm that this run may destroy the device's data." : undefined,
    };
    setMissing(problems);
    if (problems.target || problems.plan || problems.confirm || !run.body) return;
    const body = { ...run.body };
    if (details.label.trim()) body.label = details.label.trim();
    if (details.note.trim()) body.note = details.note.trim();
    if (Number(details.repetitions) !== 1) body.repetitions = Number(details.repetitions);
    createMutation.mutate(body, { onSuccess: (created) => navigate(`/runs/${created.id}`) });
  }

  const choose = (patch: Partial<RunChoices>) => setChoices((current) => ({ ...current, ...patch }));
  const confirm = (checked: boolean) => {
    choose({ confirmedFor: checked ? choices.targetId : null });
    if (checked) setMissing((current) => ({ ...current, confirm: undefined }));
  };
  const serverErrors = fieldErrors(createMutation.error, inlineFields);
  return { choices, choose, confirm, details, setDetails, missing, run, check, createMutation, inlineFields, serverErrors, submit, sweep, setSweep, sweepPresets };
}

/** Picks a target and a saved plan or preset, starts the run and opens it. */
export function StartRunForm({ targets, hosts = [], plans, presets, headingLevel = 2, initial }: StartRunFormProps) {
  const form = useStartRun({ targets, hosts, plans, presets }, initial);
  const submitButton = useRef<HTMLButtonElement>(null);
  const prefilled = Boolean(initial?.planChoice);
  useEffect(() => {
    if (prefilled) submitButton.current?.focus();
  }, [prefilled]);
  const { choices, choose, run, missing, serverErrors, createMutation } = form;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    form.submit();
  }
  return (
    <section className="panel" aria-labelledby="start-run-heading">
      <Heading id="start-run-heading">Start run</Heading>
      <form className="form" onSubmit={handleSubmit} aria-labelledby="start-run-heading">
        {createMutation.error ? (
          <ApiErrorAlert error={createMutation.error} inlineFields={form.inlineFields} jobNames={run.jobs.map((job) => job.name)} />
        ) : null}
        <RunSourceFields
          targets={targets}
          plans={plans}
          run={run}
          targetId={choices.targetId}
          onTargetChange={(targetId) => choose({ targetId })}
          planChoice={choices.planChoice}
          onPlanChange={(planChoice) => choose({ planChoice })}
          errors={{
            target: [missing.target, ...(serverErrors.target_id ?? [])].filter(isText),
            plan: [missing.plan, ...(serverErrors.plan_id ?? []), ...(serverErrors.preset_id ?? [])].filter(isText),
          }}
        />
        <RunDetailsFields values={form.details} onChange={form.setDetails} errors={serverErrors} />
        {run.preset ? <PresetSummary preset={run.preset} /> : null}
        <SweepFields presets={form.sweepPresets} choice={form.sweep} onChange={form.setSweep} errors={serverErrors} />
        <JobsToRun jobs={run.jobs} />
        {run.target && run.otherHosts.length ? (
          <MoreHostsField
            target={run.target}
            hosts={run.selectableHosts}
            allHosts={hosts}
            chosen={run.hostIds}
            onChosenChange={(extraHostIds) => choose({ extraHostIds })}
            label={choices.hostLabel}
            onLabelChange={(hostLabel) => choose({ hostLabel })}
            errors={{ hostIds: serverErrors.host_ids ?? [], hostLabel: serverErrors.host_label ?? [] }}
          />
        ) : null}
        {run.asksSharedFiles ? (
          <SharedFilesField
            checked={run.sharedFiles}
            onChange={(shared) => choose({ sharedFilesChoice: { plan: choices.planChoice, shared } })}
            errors={serverErrors.shared_files ?? []}
          />
        ) : null}
        <RunRequirementsNote items={run.target ? runRequirements(run.jobs, run.target.kind) : []}>
          This target will refuse these jobs as they stand:
        </RunRequirementsNote>
        {run.body ? <RunCheckSummary check={form.check.data} error={form.check.error} pending={form.check.isFetching} /> : null}
        {run.needsConfirm && run.target ? (
          <DestructiveConfirm
            target={run.target}
            writingJobs={run.writingJobs.map((job) => job.name)}
            checked={run.confirmed}
            error={missing.confirm}
            onChange={form.confirm}
          />
        ) : null}
        {targets.length === 0 ? <p className="muted small">No targets yet: register one on the Targets page.</p> : null}
        <button ref={submitButton} type="submit" className="button button-primary" disabled={createMutation.isPending}>
          Start run
        </button>
      </form>
    </section>
  );
}

type RunDetails = { label: string; note: string; repetitions: string };

/** The run's own label, note and number of repetitions. */
function RunDetailsFields(props: { values: RunDetails; onChange: (values: RunDetails) => void; errors: Record<string, string[]> }) {
  const { values, errors } = props;
  const set = (patch: Partial<RunDetails>) => props.onChange({ ...values, ...patch });
  return (
    <div className="form-grid">
      <FormField label="Run label" optional errors={errors.label} hint='e.g. "after firmware 2.1"'>
        {(c) => <input {...c} name="label" maxLength={200} value={values.label} onChange={(e) => set({ label: e.target.value })} />}
      </FormField>
      <FormField label="Run note" optional errors={errors.note} hint='e.g. "nconnect=8"'>
        {(c) => <input {...c} name="note" maxLength={4000} value={values.note} onChange={(e) => set({ note: e.target.value })} />}
      </FormField>
      <FormField label="Repetitions" errors={errors.repetitions} hint="Run the jobs 1 to 100 times in a row; each result is numbered, for significance tests.">
        {(c) => (
          <input {...c} name="repetitions" type="number" min={1} max={100} required value={values.repetitions} onChange={(e) => set({ repetitions: e.target.value })} />
        )}
      </FormField>
    </div>
  );
}

/** What a chosen preset is for, who published it, and the figure they published for it. */
function PresetSummary({ preset }: { preset: Preset }) {
  const published = (preset.expected ?? []).map((figure) => formatSpecFigure(figure.value, figure.unit));
  return (
    <div className="small" role="note" aria-label={`About preset ${preset.name}`}>
      <p>{preset.description}</p>
      <p className="muted">
        Source: {preset.source}
        {published.length > 0 ? <> · published: {published.join(", ")}</> : " · no published figure"}
      </p>
    </div>
  );
}

function JobsToRun({ jobs }: { jobs: ResolvedRun["jobs"] }) {
  if (!jobs.length) return null;
  return (
    <ul className="plain-list small mono" aria-label="Jobs to run">
      {jobs.map((job, index) => (
        <li key={index}>
          [{job.name}] {describeJob(job)}
        </li>
      ))}
    </ul>
  );
}

function isText(value: string | undefined): value is string {
  return typeof value === "string" && value !== "";
}
