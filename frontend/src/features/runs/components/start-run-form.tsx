import { useId, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import { RunRequirementsNote } from "../../../components/ui/run-requirements-note";
import { SharedFilesField } from "../../../components/ui/shared-files-field";
import { fieldErrors } from "../../../lib/api-client";
import type { Host, Plan, Preset, RunCreate, Target } from "../../../lib/api/types";
import { describeJob, jobWrites, runRequirements } from "../../../lib/fio";
import { useRunCheck } from "../api/check-run";
import { useCreateRun } from "../api/create-run";
import { RunCheckSummary } from "./run-check-summary";

export type TargetOption = Pick<Target, "id" | "name" | "host_id" | "host_name" | "path" | "kind" | "destructive">;
export type HostOption = Pick<Host, "id" | "name" | "status" | "labels"> & { facts?: Host["facts"] };

/** linux or windows from the OS a host reported (undefined before its first heartbeat). */
export function hostPlatform(host: HostOption | undefined): "linux" | "windows" | "other" | undefined {
  const os = (host?.facts?.os ?? "").toLowerCase();
  if (!os) return undefined;
  if (os.startsWith("windows") || os.includes("cygwin") || os.includes("mingw")) return "windows";
  return os.startsWith("linux") ? "linux" : "other";
}

const PLATFORM_NAMES = { linux: "Linux", windows: "Windows", other: "another system" } as const;

interface StartRunFormProps {
  targets: TargetOption[];
  /** The team's hosts: a run may also use others that mount the target's path. */
  hosts?: HostOption[];
  plans: Plan[];
  presets: Preset[];
  headingLevel?: 2 | 3;
}

/** Picks a target and a saved plan or preset, starts the run and opens it. */
export function StartRunForm({ targets, hosts = [], plans, presets, headingLevel = 2 }: StartRunFormProps) {
  const [targetId, setTargetId] = useState("");
  const [planChoice, setPlanChoice] = useState("");
  const [extraHostIds, setExtraHostIds] = useState<number[]>([]);
  const [hostLabel, setHostLabel] = useState("");
  const [runLabel, setRunLabel] = useState("");
  const [runNote, setRunNote] = useState("");
  const [repetitions, setRepetitions] = useState("1");
  // The starter's answer on shared files, for the plan choice it was given under: choosing
  // another plan brings back that plan's own default.
  const [sharedFilesChoice, setSharedFilesChoice] = useState<{ plan: string; shared: boolean } | null>(null);
  const [missing, setMissing] = useState<{ target?: string; plan?: string; confirm?: string }>({});
  // The id of the target whose data loss was acknowledged: switching targets asks again.
  const [confirmedFor, setConfirmedFor] = useState<string | null>(null);
  const navigate = useNavigate();
  const createMutation = useCreateRun();
  const Heading = headingLevel === 2 ? "h2" : "h3";

  const [choiceKind, choiceId] = planChoice.split(":", 2) as [string, string | undefined];
  const chosenPlan = choiceKind === "plan" ? plans.find((plan) => String(plan.id) === choiceId) : undefined;
  const chosenTarget = targets.find((target) => String(target.id) === targetId);
  // Presets are offered only for the platform the target's host runs (when it has said).
  const platform = hostPlatform(hosts.find((host) => host.id === chosenTarget?.host_id));
  const offeredPresets = platform ? presets.filter((preset) => (preset.platform ?? "linux") === platform) : presets;
  const hiddenPresets = presets.length - offeredPresets.length;
  const chosenPreset =
    choiceKind === "preset" ? offeredPresets.find((preset) => preset.id === choiceId) : undefined;
  // A preset's jobs come complete (its global options folded in by the API).
  const chosenJobs = chosenPlan?.jobs ?? chosenPreset?.jobs ?? [];
  const writingJobs = chosenJobs.filter(jobWrites);
  const needsConfirm = chosenTarget?.kind === "block_device" && writingJobs.length > 0;
  const confirmed = needsConfirm && confirmedFor === targetId;
  const requirements = chosenTarget ? runRequirements(chosenJobs, chosenTarget.kind) : [];
  // Hosts a run can add: reachable ones other than the target's own (which always runs).
  const otherHosts = chosenTarget ? hosts.filter((host) => host.id !== chosenTarget.host_id) : [];
  const selectableHosts = otherHosts.filter((host) => host.status !== "offline");
  const chosenHostIds = extraHostIds.filter((id) => selectableHosts.some((host) => host.id === id));
  const chosenLabel = otherHosts.length ? hostLabel.trim() : "";
  // Only hosts sharing a directory have files to share; a block device is one device for all.
  const asksSharedFiles = chosenTarget?.kind === "directory" && (chosenHostIds.length > 0 || chosenLabel !== "");
  const sharedFiles =
    sharedFilesChoice?.plan === planChoice ? sharedFilesChoice.shared : (chosenPlan?.shared_files ?? false);
  const inlineFields = asksSharedFiles ? [...INLINE_FIELDS, "shared_files"] : INLINE_FIELDS;
  const serverErrors = fieldErrors(createMutation.error, inlineFields);

  /** The run as it would be started now (null until a target and a plan or preset are chosen). */
  function runBody(): RunCreate | null {
    // A preset goes by id, not as inline jobs: the server resolves it and names the run after it.
    const source = chosenPlan ? { plan_id: chosenPlan.id } : chosenPreset ? { preset_id: chosenPreset.id } : null;
    if (!source || !chosenTarget) return null;
    const body: RunCreate = { target_id: chosenTarget.id, ...source };
    if (needsConfirm) body.confirm_destructive = confirmed;
    if (chosenHostIds.length) body.host_ids = chosenHostIds;
    if (chosenLabel) body.host_label = chosenLabel;
    if (asksSharedFiles) body.shared_files = sharedFiles;
    return body;
  }
  const check = useRunCheck(runBody());

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = {
      target: targetId ? undefined : "Choose a target.",
      plan: chosenPlan || chosenPreset ? undefined : "Choose a plan or preset.",
      confirm: needsConfirm && !confirmed ? "Confirm that this run may destroy the device's data." : undefined,
    };
    setMissing(problems);
    if (problems.target || problems.plan || problems.confirm) return;
    const body = runBody();
    if (!body) return;
    if (runLabel.trim()) body.label = runLabel.trim();
    if (runNote.trim()) body.note = runNote.trim();
    if (Number(repetitions) !== 1) body.repetitions = Number(repetitions);
    createMutation.mutate(body, { onSuccess: (run) => navigate(`/runs/${run.id}`) });
  }

  return (
    <section className="panel" aria-labelledby="start-run-heading">
      <Heading id="start-run-heading">Start run</Heading>
      <form className="form" onSubmit={handleSubmit} aria-labelledby="start-run-heading">
        {createMutation.error ? (
          <ApiErrorAlert
            error={createMutation.error}
            inlineFields={inlineFields}
            jobNames={chosenJobs.map((job) => job.name)}
          />
        ) : null}
        <div className="form-grid">
          <FormField label="Target" errors={[missing.target, ...(serverErrors.target_id ?? [])].filter(isText)}>
            {(c) => (
              <select {...c} name="target" value={targetId} onChange={(e) => setTargetId(e.target.value)}>
                <option value="">Choose a target…</option>
                {targets.map((target) => (
                  <option key={target.id} value={String(target.id)}>
                    {target.name} ({target.host_name}:{target.path})
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField
            label="Plan"
            errors={[missing.plan, ...(serverErrors.plan_id ?? []), ...(serverErrors.preset_id ?? [])].filter(isText)}
          >
            {(c) => (
              <select {...c} name="plan" value={planChoice} onChange={(e) => setPlanChoice(e.target.value)}>
                <option value="">Choose a plan or preset…</option>
                {plans.length ? (
                  <optgroup label="Saved plans">
                    {plans.map((plan) => (
                      <option key={plan.id} value={`plan:${plan.id}`}>
                        {plan.name}
                      </option>
                    ))}
                  </optgroup>
                ) : null}
                {offeredPresets.length ? (
                  <optgroup label="Presets">
                    {offeredPresets.map((preset) => (
                      <option key={preset.id} value={`preset:${preset.id}`}>
                        {preset.name} ({preset.source})
                      </option>
                    ))}
                  </optgroup>
                ) : null}
              </select>
            )}
          </FormField>
        </div>
        {hiddenPresets > 0 && platform && chosenTarget ? (
          <p className="muted small">
            {hiddenPresets} {hiddenPresets === 1 ? "preset is" : "presets are"} not offered: {chosenTarget.host_name} runs{" "}
            {PLATFORM_NAMES[platform]} and {hiddenPresets === 1 ? "it is a recipe" : "they are recipes"} for another
            platform.
          </p>
        ) : null}
        <div className="form-grid">
          <FormField label="Run label" optional errors={serverErrors.label} hint='e.g. "after firmware 2.1"'>
            {(c) => <input {...c} name="label" maxLength={200} value={runLabel} onChange={(e) => setRunLabel(e.target.value)} />}
          </FormField>
          <FormField label="Run note" optional errors={serverErrors.note} hint='e.g. "nconnect=8"'>
            {(c) => <input {...c} name="note" maxLength={4000} value={runNote} onChange={(e) => setRunNote(e.target.value)} />}
          </FormField>
          <FormField label="Repetitions" errors={serverErrors.repetitions} hint="Run the jobs 1 to 100 times in a row; each result is numbered, for significance tests.">
            {(c) => (
              <input {...c} name="repetitions" type="number" min={1} max={100} required value={repetitions} onChange={(e) => setRepetitions(e.target.value)} />
            )}
          </FormField>
        </div>
        {chosenJobs.length ? (
          <ul className="plain-list small mono" aria-label="Jobs to run">
            {chosenJobs.map((job, index) => (
              <li key={index}>
                [{job.name}] {describeJob(job)}
              </li>
            ))}
          </ul>
        ) : null}
        {chosenTarget && otherHosts.length ? (
          <MoreHosts
            target={chosenTarget}
            hosts={selectableHosts}
            allHosts={hosts}
            chosen={chosenHostIds}
            onChosenChange={setExtraHostIds}
            label={hostLabel}
            onLabelChange={setHostLabel}
            errors={{ hostIds: serverErrors.host_ids ?? [], hostLabel: serverErrors.host_label ?? [] }}
          />
        ) : null}
        {asksSharedFiles ? (
          <SharedFilesField
            checked={sharedFiles}
            onChange={(shared) => setSharedFilesChoice({ plan: planChoice, shared })}
            errors={serverErrors.shared_files ?? []}
          />
        ) : null}
        <RunRequirementsNote items={requirements}>This target will refuse these jobs as they stand:</RunRequirementsNote>
        {runBody() ? <RunCheckSummary check={check.data} error={check.error} pending={check.isFetching} /> : null}
        {needsConfirm && chosenTarget ? (
          <DestructiveConfirm
            target={chosenTarget}
            writingJobs={writingJobs.map((job) => job.name)}
            checked={confirmed}
            error={missing.confirm}
            onChange={(checked) => {
              setConfirmedFor(checked ? targetId : null);
              if (checked) setMissing((current) => ({ ...current, confirm: undefined }));
            }}
          />
        ) : null}
        {targets.length === 0 ? <p className="muted small">No targets yet: register one on the Targets page.</p> : null}
        <button type="submit" className="button button-primary" disabled={createMutation.isPending}>
          Start run
        </button>
      </form>
    </section>
  );
}

const INLINE_FIELDS: readonly string[] = ["target_id", "plan_id", "preset_id", "host_ids", "host_label", "label", "note", "repetitions"];

interface MoreHostsProps {
  target: TargetOption;
  /** Hosts that can join (online or busy), the target's own excluded. */
  hosts: HostOption[];
  /** Every host of the team, to say which carry a label. */
  allHosts: HostOption[];
  chosen: number[];
  onChosenChange: (ids: number[]) => void;
  label: string;
  onLabelChange: (label: string) => void;
  errors: { hostIds: string[]; hostLabel: string[] };
}

/** A synchronized run: more hosts that mount the target's path, by name or by label. */
function MoreHosts({ target, hosts, allHosts, chosen, onChosenChange, label, onLabelChange, errors }: MoreHostsProps) {
  const id = useId();
  const labels = [...new Set(allHosts.flatMap((host) => host.labels))].sort();
  const wanted = label.trim();
  const labelled = wanted ? allHosts.filter((host) => host.labels.includes(wanted)) : [];
  const describedBy = [`${id}-how`, errors.hostIds.length ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="more-hosts">
      <fieldset aria-describedby={describedBy}>
        <legend>
          Also run on hosts <span className="field-optional">(optional)</span>
        </legend>
        <p id={`${id}-how`} className="field-hint">
          Every host starts fio at the same moment on <span className="mono">{target.path}</span>, so each must mount
          that path (a shared file system). The run then also reports what all hosts delivered together.
        </p>
        {hosts.length ? (
          <div className="host-choices">
            {hosts.map((host) => (
              <label key={host.id}>
                <input
                  type="checkbox"
                  name="host_ids"
                  value={host.id}
                  checked={chosen.includes(host.id)}
                  onChange={(event) =>
                    onChosenChange(event.target.checked ? [...chosen, host.id] : chosen.filter((other) => other !== host.id))
                  }
                />
                {host.name}
                {host.status === "busy" ? <span className="muted small"> (busy)</span> : null}
                {host.labels.length ? <span className="muted small"> · labels {host.labels.join(", ")}</span> : null}
              </label>
            ))}
          </div>
        ) : (
          <p className="muted small">No other host is online.</p>
        )}
        {errors.hostIds.length ? (
          <p id={`${id}-error`} className="field-error">
            {errors.hostIds.join("; ")}
          </p>
        ) : null}
      </fieldset>
      <FormField
        label="Or every host labelled"
        optional
        errors={errors.hostLabel}
        hint={
          wanted
            ? labelled.length
              ? `Adds ${labelled.map((host) => host.name).join(", ")}.`
              : "No host carries this label yet: the server will refuse it."
            : "Adds every host carrying this label (set labels on the Hosts page)."
        }
      >
        {(c) => (
          <>
            <input
              {...c}
              name="host_label"
              value={label}
              list={`${id}-labels`}
              autoComplete="off"
              onChange={(event) => onLabelChange(event.target.value)}
            />
            <datalist id={`${id}-labels`}>
              {labels.map((item) => (
                <option key={item} value={item} />
              ))}
            </datalist>
          </>
        )}
      </FormField>
    </div>
  );
}

interface DestructiveConfirmProps {
  target: TargetOption;
  writingJobs: string[];
  checked: boolean;
  error: string | undefined;
  onChange: (checked: boolean) => void;
}

/** The starter's explicit consent to write to a block device (sent as confirm_destructive). */
function DestructiveConfirm({ target, writingJobs, checked, error, onChange }: DestructiveConfirmProps) {
  const id = useId();
  const describedBy = [`${id}-what`, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="confirm-box">
      <label className="check-confirm">
        <input
          type="checkbox"
          name="confirm_destructive"
          required
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span>
          I understand this run destroys the data on <span className="mono">{target.path}</span>
        </span>
      </label>
      <p id={`${id}-what`} className="small">
        {writingJobs.length === 1 ? "Job" : "Jobs"} {writingJobs.join(", ")} {writingJobs.length === 1 ? "writes" : "write"}{" "}
        to the block device {target.name}.
        {target.destructive
          ? ""
          : " A team owner has not allowed destructive writes on it yet (Targets page): the server will refuse the run until then."}
      </p>
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function isText(value: string | undefined): value is string {
  return typeof value === "string" && value !== "";
}
