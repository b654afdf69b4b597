import { FormField } from "../../../components/ui/form-field";
import { errorField, isApiError } from "../../../lib/api-client";
import type { FioJob } from "../../../lib/api/types";
import { COMMON_IOENGINES, describeJob, formatOption, RW_MODES } from "../../../lib/fio";
import type { JobsValidation } from "../api/validate-jobs";
import { blankDraft, type JobDraft } from "./job-draft";

interface JobEditorProps {
  drafts: JobDraft[];
  onChange: (drafts: JobDraft[]) => void;
  /** The API's reading of the drafts as typed (POST /fio/validate-jobs). */
  validation: JobsValidation;
}

const MIXED = new Set(["rw", "randrw", "readwrite"]);

/** The API's reasons for rejecting options of the job at index, by option. */
function optionErrors(validation: JobsValidation, index: number): Record<string, string[]> {
  const byOption: Record<string, string[]> = {};
  if (validation.status !== "invalid" || !isApiError(validation.error)) return byOption;
  const prefix = `jobs.${index}.`;
  for (const detail of validation.error.errors) {
    const field = errorField(detail);
    if (field?.startsWith(prefix)) (byOption[field.slice(prefix.length)] ??= []).push(detail.reason);
  }
  return byOption;
}

/** A size as fio will read it, from the API's normalised job: "1,000,000 bytes". */
function bytesHint(value: FioJob["bs"] | FioJob["size"] | undefined) {
  if (typeof value !== "number") return undefined;
  return <>fio reads {value.toLocaleString("en-US")} bytes</>;
}

interface JobFieldsProps {
  draft: JobDraft;
  errors: Record<string, string[]>;
  update: (patch: Partial<JobDraft>) => void;
}

/** What the job does: its name, pattern, block size, queue depth, jobs, size and runtime. */
function JobWorkloadFields({ draft, errors, update, normalised }: JobFieldsProps & { normalised: FioJob | undefined }) {
  return (
    <>
      <FormField label="Job name" errors={errors.name}>
        {(c) => <input {...c} className="mono" value={draft.name} onChange={(e) => update({ name: e.target.value })} />}
      </FormField>
      <FormField label="rw" errors={errors.rw}>
        {(c) => (
          <select {...c} value={draft.rw} onChange={(e) => update({ rw: e.target.value })}>
            {(RW_MODES as readonly string[]).includes(draft.rw) ? null : <option value={draft.rw}>{draft.rw}</option>}
            {RW_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {mode}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField label="bs" errors={errors.bs} hint={bytesHint(normalised?.bs)}>
        {(c) => <input {...c} className="mono" placeholder="4k" value={draft.bs} onChange={(e) => update({ bs: e.target.value })} />}
      </FormField>
      <FormField label="iodepth" errors={errors.iodepth}>
        {(c) => <input {...c} type="number" min={1} value={draft.iodepth} onChange={(e) => update({ iodepth: e.target.value })} />}
      </FormField>
      <FormField label="numjobs" errors={errors.numjobs}>
        {(c) => <input {...c} type="number" min={1} value={draft.numjobs} onChange={(e) => update({ numjobs: e.target.value })} />}
      </FormField>
      <FormField label="size" errors={errors.size} hint={bytesHint(normalised?.size)}>
        {(c) => (
          <input {...c} className="mono" placeholder="10g or 100%" value={draft.size} onChange={(e) => update({ size: e.target.value })} />
        )}
      </FormField>
      <FormField label="runtime (s)" errors={errors.runtime}>
        {(c) => <input {...c} type="number" min={1} value={draft.runtime} onChange={(e) => update({ runtime: e.target.value })} />}
      </FormField>
    </>
  );
}

/** How the job runs: its engine (suggestions listed once, under the first job), read mix and flags. */
function JobEngineFields({ draft, errors, update, first }: JobFieldsProps & { first: boolean }) {
  return (
    <>
      <FormField label="ioengine" errors={errors.ioengine}>
        {(c) => (
          <>
            <input {...c} className="mono" list="ioengine-suggestions" value={draft.ioengine} onChange={(e) => update({ ioengine: e.target.value })} />
            {first ? (
              <datalist id="ioengine-suggestions">
                {COMMON_IOENGINES.map((engine) => (
                  <option key={engine} value={engine} />
                ))}
              </datalist>
            ) : null}
          </>
        )}
      </FormField>
      {MIXED.has(draft.rw) ? (
        <FormField label="rwmixread (%)" errors={errors.rwmixread}>
          {(c) => (
            <input {...c} type="number" min={0} max={100} value={draft.rwmixread} onChange={(e) => update({ rwmixread: e.target.value })} />
          )}
        </FormField>
      ) : null}
      <div className="field field-checks">
        <label>
          <input type="checkbox" checked={draft.direct} onChange={(e) => update({ direct: e.target.checked })} /> direct
          (O_DIRECT)
        </label>
        <label>
          <input type="checkbox" checked={draft.time_based} onChange={(e) => update({ time_based: e.target.checked })} />{" "}
          time_based
        </label>
      </div>
    </>
  );
}

/** Under a job: the job as fio will run it, and the options the editor keeps without showing. */
function JobReadback({ draft, normalised }: { draft: JobDraft; normalised: FioJob | undefined }) {
  const extras = Object.entries(draft.extra);
  return (
    <>
      {normalised ? (
        <p className="small">
          As fio will run it: <code className="mono">{describeJob(normalised)}</code>
        </p>
      ) : null}
      {extras.length ? (
        <p className="small">
          Other options:{" "}
          {extras.map(([key, value]) => (
            <code key={key} className="option-chip">
              {formatOption(key, value)}
            </code>
          ))}
        </p>
      ) : null}
    </>
  );
}

/**
 * Edits the common fio options of each job; other options are kept and listed. Next to each field,
 * what the API made of it (sizes as the byte counts fio will read) or its reason for refusing it
 * (refusals of other options are listed by the form, see editorFields); under each job, the job as
 * fio will run it.
 */
export function JobEditor({ drafts, onChange, validation }: JobEditorProps) {
  const update = (key: string, patch: Partial<JobDraft>) =>
    onChange(drafts.map((draft) => (draft.key === key ? { ...draft, ...patch } : draft)));
  const remove = (key: string) => onChange(drafts.filter((draft) => draft.key !== key));

  return (
    <div className="job-editor">
      {drafts.length === 0 ? <p className="muted">No jobs yet: pick a preset, paste a job file or add a job.</p> : null}
      {drafts.map((draft, index) => {
        const errors = optionErrors(validation, index);
        const normalised = validation.status === "valid" ? validation.jobs[index] : undefined;
        const updateThis = (patch: Partial<JobDraft>) => update(draft.key, patch);
        return (
          <fieldset key={draft.key} className="job-fieldset">
            <legend>
              Job {index + 1}: {draft.name || "(unnamed)"}
            </legend>
            <div className="form-grid form-grid-dense">
              <JobWorkloadFields draft={draft} errors={errors} update={updateThis} normalised={normalised} />
              <JobEngineFields draft={draft} errors={errors} update={updateThis} first={index === 0} />
            </div>
            <JobReadback draft={draft} normalised={normalised} />
            <button type="button" className="button button-small" onClick={() => remove(draft.key)}>
              Remove job {draft.name}
            </button>
          </fieldset>
        );
      })}
      <button type="button" className="button" onClick={() => onChange([...drafts, blankDraft(drafts.length)])}>
        Add job
      </button>
    </div>
  );
}

/** The options the editor shows for a draft (the API's errors on them go next to them). */
function fieldsOf(draft: JobDraft): string[] {
  const fields = ["name", "rw", "bs", "iodepth", "numjobs", "size", "runtime", "ioengine"];
  return MIXED.has(draft.rw) ? [...fields, "rwmixread"] : fields;
}

/** The API fields ("jobs.0.bs", ...) whose errors the editor shows next to their inputs. */
export function editorFields(drafts: JobDraft[]): string[] {
  return drafts.flatMap((draft, index) => fieldsOf(draft).map((option) => `jobs.${index}.${option}`));
}
