import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { ConfirmAction } from "../../../components/ui/confirm-action";
import { FormField } from "../../../components/ui/form-field";
import { SharedFilesField } from "../../../components/ui/shared-files-field";
import { fieldErrors } from "../../../lib/api-client";
import type { Plan, Target } from "../../../lib/api/types";
import { useDeletePlan } from "../api/delete-plan";
import { useDuplicatePlan } from "../api/duplicate-plan";
import { useRunPlan } from "../api/run-plan";
import { useUpdatePlan, type PlanUpdate } from "../api/update-plan";
import { useValidatedJobs } from "../api/validate-jobs";
import { draftFromJob, jobFromDraft, type JobDraft } from "./job-draft";
import { editorFields, JobEditor } from "./job-editor";

export type PlanTarget = Pick<Target, "id" | "name" | "host_name" | "path">;
type Open = "run" | "edit" | null;

/** Run now, edit (a new version), duplicate and delete, for one saved plan. */
export function PlanRowActions({ plan, targets }: { plan: Plan; targets: PlanTarget[] }) {
  const [open, setOpen] = useState<Open>(null);
  const duplicate = useDuplicatePlan();
  const remove = useDeletePlan();
  const toggle = (what: Open) => setOpen((current) => (current === what ? null : what));
  return (
    <div className="plan-actions">
      <div className="button-row">
        <button
          type="button"
          className="button button-small"
          aria-expanded={open === "run"}
          aria-label={`Run ${plan.name} now`}
          onClick={() => toggle("run")}
        >
          Run now
        </button>
        <button
          type="button"
          className="button button-small"
          aria-expanded={open === "edit"}
          aria-label={`Edit ${plan.name}`}
          onClick={() => toggle("edit")}
        >
          Edit
        </button>
        <button
          type="button"
          className="button button-small"
          aria-label={`Duplicate ${plan.name}`}
          disabled={duplicate.isPending}
          onClick={() => duplicate.mutate({ id: plan.id })}
        >
          Duplicate
        </button>
        <ConfirmAction
          label="Delete"
          name={`Delete ${plan.name}`}
          groupLabel={`Delete plan ${plan.name}?`}
          question={
            <>
              Delete the plan <strong>{plan.name}</strong> and its versions? Its runs and their results stay, under its
              name.
            </>
          }
          confirmLabel="Delete plan"
          disabled={remove.isPending}
          onConfirm={() => remove.mutate(plan.id)}
        />
      </div>
      {duplicate.error ? <ApiErrorAlert error={duplicate.error} title="Could not duplicate the plan" /> : null}
      {duplicate.isSuccess ? (
        <p role="status" className="small">
          Saved as {duplicate.data.name}.
        </p>
      ) : null}
      {remove.error ? <ApiErrorAlert error={remove.error} title="Could not delete the plan" /> : null}
      {open === "run" ? <RunNowForm plan={plan} targets={targets} /> : null}
      {open === "edit" ? <EditPlanForm plan={plan} onDone={() => setOpen(null)} /> : null}
    </div>
  );
}

function RunNowForm({ plan, targets }: { plan: Plan; targets: PlanTarget[] }) {
  const [targetId, setTargetId] = useState("");
  const [label, setLabel] = useState("");
  const [missing, setMissing] = useState<string | undefined>();
  const navigate = useNavigate();
  const start = useRunPlan();
  const errors = fieldErrors(start.error, ["target_id", "label"]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!targetId) {
      setMissing("Choose a target.");
      return;
    }
    setMissing(undefined);
    const body = { target_id: Number(targetId), plan_id: plan.id, ...(label.trim() ? { label: label.trim() } : {}) };
    start.mutate(body, { onSuccess: (run) => navigate(`/runs/${run.id}`) });
  }

  return (
    <form className="form inline-form" aria-label={`Run ${plan.name}`} onSubmit={submit}>
      {start.error ? <ApiErrorAlert error={start.error} inlineFields={["target_id", "label"]} /> : null}
      <div className="form-grid form-grid-dense">
        <FormField label="Target" errors={[missing, ...(errors.target_id ?? [])].filter((e): e is string => !!e)}>
          {(c) => (
            <select {...c} value={targetId} onChange={(e) => setTargetId(e.target.value)}>
              <option value="">Choose a target…</option>
              {targets.map((target) => (
                <option key={target.id} value={String(target.id)}>
                  {target.name} ({target.host_name}:{target.path})
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Run label" optional errors={errors.label}>
          {(c) => <input {...c} value={label} maxLength={200} onChange={(e) => setLabel(e.target.value)} />}
        </FormField>
      </div>
      <button type="submit" className="button button-primary button-small" disabled={start.isPending}>
        Start run of v{plan.version ?? 1}
      </button>
    </form>
  );
}

function EditPlanForm({ plan, onDone }: { plan: Plan; onDone: () => void }) {
  const [name, setName] = useState(plan.name);
  const [description, setDescription] = useState(plan.description ?? "");
  const [sharedFiles, setSharedFiles] = useState(plan.shared_files ?? false);
  const [drafts, setDrafts] = useState<JobDraft[]>(() => plan.jobs.map(draftFromJob));
  const update = useUpdatePlan();
  const draftJobs = drafts.map(jobFromDraft);
  const validation = useValidatedJobs(draftJobs);
  const errors = fieldErrors(update.error, INLINE_FIELDS);
  const jobNames = draftJobs.map((job) => String(job.name));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body: PlanUpdate = { jobs: draftJobs, shared_files: sharedFiles, description: description.trim() || null };
    if (name.trim() !== plan.name) body.name = name.trim();
    update.mutate({ id: plan.id, body }, { onSuccess: onDone });
  }

  return (
    <form className="form inline-form" aria-label={`Edit ${plan.name}`} onSubmit={submit}>
      <p className="small muted">
        Changing the jobs saves version {(plan.version ?? 1) + 1}; runs keep the version they ran.
      </p>
      <div className="form-grid form-grid-dense">
        <FormField label="Plan name" errors={errors.name}>
          {(c) => <input {...c} required value={name} onChange={(e) => setName(e.target.value)} />}
        </FormField>
        <FormField label="Description" optional errors={errors.description}>
          {(c) => <input {...c} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </FormField>
      </div>
      <JobEditor drafts={drafts} onChange={setDrafts} validation={validation} />
      {validation.status === "invalid" ? (
        <ApiErrorAlert
          error={validation.error}
          title="fio would reject these jobs"
          inlineFields={editorFields(drafts)}
          jobNames={jobNames}
        />
      ) : null}
      <SharedFilesField checked={sharedFiles} onChange={setSharedFiles} errors={errors.shared_files} />
      {update.error ? <ApiErrorAlert error={update.error} inlineFields={INLINE_FIELDS} jobNames={jobNames} /> : null}
      <div className="button-row">
        <button type="submit" className="button button-primary button-small" disabled={update.isPending}>
          Save changes
        </button>
        <button type="button" className="button button-small" onClick={onDone}>
          Discard
        </button>
      </div>
    </form>
  );
}

const INLINE_FIELDS = ["name", "description", "shared_files"] as const;
