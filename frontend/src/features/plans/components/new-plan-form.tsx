import { useCallback, useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import { RunRequirementsNote } from "../../../components/ui/run-requirements-note";
import { SharedFilesField } from "../../../components/ui/shared-files-field";
import { fieldErrors } from "../../../lib/api-client";
import type { FioJob, PlanCreate, Preset } from "../../../lib/api/types";
import { runRequirements } from "../../../lib/fio";
import { useCreatePlan } from "../api/create-plan";
import { useValidatedJobs, type JobsValidation } from "../api/validate-jobs";
import { FioTextInput } from "./fio-text-input";
import { editorFields, JobEditor } from "./job-editor";
import { draftFromJob, jobFromDraft, type JobDraft } from "./job-draft";
import { PresetPicker } from "./preset-picker";

/** Where the jobs come from: a preset, or a pasted fio job file or command line. */
function JobSources({
  presets,
  presetId,
  onSelectPreset,
  onParsed,
  formKey,
}: {
  presets: Preset[];
  presetId: string | null;
  onSelectPreset: (preset: Preset | null) => void;
  onParsed: (jobs: FioJob[]) => void;
  /** Changes after a save, to clear the pasted text. */
  formKey: number;
}) {
  return (
    <div className="two-columns">
      <fieldset className="source-fieldset">
        <legend>Start from a preset</legend>
        <PresetPicker presets={presets} selectedId={presetId} onSelect={onSelectPreset} />
      </fieldset>
      <fieldset className="source-fieldset">
        <legend>Or paste fio</legend>
        <FioTextInput key={formKey} onParsed={onParsed} />
      </fieldset>
    </div>
  );
}

/** The API's reading of the jobs while typing: checking, or its reasons for refusing them. */
function JobsValidationStatus({ validation, drafts, jobNames }: { validation: JobsValidation; drafts: JobDraft[]; jobNames: string[] }) {
  return (
    <div aria-live="polite" className="validation-status">
      {validation.status === "checking" ? <p className="muted small">Checking the jobs…</p> : null}
      {validation.status === "invalid" ? (
        <ApiErrorAlert
          error={validation.error}
          title="fio would reject these jobs"
          inlineFields={editorFields(drafts)}
          jobNames={jobNames}
        />
      ) : null}
    </div>
  );
}

/** After Save plan: the API's refusal, or which plan was saved. */
function SaveOutcome({ mutation, jobNames }: { mutation: ReturnType<typeof useCreatePlan>; jobNames: string[] }) {
  return (
    <>
      {mutation.error ? <ApiErrorAlert error={mutation.error} inlineFields={INLINE_FIELDS} jobNames={jobNames} /> : null}
      {mutation.isSuccess && !mutation.isPending ? (
        <p role="status" className="alert alert-ok">
          Plan {mutation.data.name} saved.
        </p>
      ) : null}
    </>
  );
}

/** A plan from a preset, a pasted fio job file/command line or by hand; jobs editable before saving. */
export function NewPlanForm({ presets }: { presets: Preset[] }) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [presetId, setPresetId] = useState<string | null>(null);
  const [sharedFiles, setSharedFiles] = useState(false);
  const [drafts, setDrafts] = useState<JobDraft[]>([]);
  const [formKey, setFormKey] = useState(0);
  const createMutation = useCreatePlan();
  const errors = fieldErrors(createMutation.error, INLINE_FIELDS);
  // The jobs as typed: the API reads their units (while typing, and again on save).
  const draftJobs = drafts.map(jobFromDraft);
  const validation = useValidatedJobs(draftJobs);
  const requirements = runRequirements(draftJobs);
  const jobNames = draftJobs.map((job) => String(job.name));

  function selectPreset(preset: Preset | null) {
    setPresetId(preset?.id ?? null);
    if (!preset) return;
    // A preset's jobs come complete (its global options folded in by the API).
    setDrafts(preset.jobs.map(draftFromJob));
    setName((current) => current || preset.name);
    setDescription((current) => current || preset.description);
  }

  const loadParsed = useCallback((jobs: FioJob[]) => {
    setPresetId(null);
    setDrafts(jobs.map(draftFromJob));
  }, []);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body: PlanCreate = { name: name.trim(), jobs: draftJobs, shared_files: sharedFiles };
    if (description.trim()) body.description = description.trim();
    if (presetId) body.preset_id = presetId;
    createMutation.mutate(body, {
      onSuccess: () => {
        setName("");
        setDescription("");
        setPresetId(null);
        setSharedFiles(false);
        setDrafts([]);
        setFormKey((key) => key + 1);
      },
    });
  }

  return (
    <section className="panel" aria-labelledby="new-plan-heading">
      <h2 id="new-plan-heading">New plan</h2>
      <form className="form" onSubmit={handleSubmit} aria-labelledby="new-plan-heading">
        <div className="form-grid">
          <FormField label="Plan name" errors={errors.name}>
            {(c) => <input {...c} name="name" required value={name} onChange={(e) => setName(e.target.value)} />}
          </FormField>
          <FormField label="Description" optional errors={errors.description}>
            {(c) => <input {...c} name="description" value={description} onChange={(e) => setDescription(e.target.value)} />}
          </FormField>
        </div>
        <JobSources presets={presets} presetId={presetId} onSelectPreset={selectPreset} onParsed={loadParsed} formKey={formKey} />
        <h3>Jobs</h3>
        <JobEditor drafts={drafts} onChange={setDrafts} validation={validation} />
        <JobsValidationStatus validation={validation} drafts={drafts} jobNames={jobNames} />
        <SharedFilesField
          checked={sharedFiles}
          onChange={setSharedFiles}
          scope="For runs on several hosts of a directory target (a run may say otherwise)."
          errors={errors.shared_files}
        />
        <RunRequirementsNote items={requirements}>The plan can be saved, but runs will refuse these jobs as they stand:</RunRequirementsNote>
        <SaveOutcome mutation={createMutation} jobNames={jobNames} />
        <button type="submit" className="button button-primary" disabled={createMutation.isPending}>
          Save plan
        </button>
      </form>
    </section>
  );
}

const INLINE_FIELDS = ["name", "description", "shared_files"] as const;
