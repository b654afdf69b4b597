import { FormField } from "../../../components/ui/form-field";
import { COMMON_IOENGINES, formatOption, RW_MODES } from "../../../lib/fio";
import { blankDraft, type JobDraft } from "./job-draft";

interface JobEditorProps {
  drafts: JobDraft[];
  onChange: (drafts: JobDraft[]) => void;
}

const MIXED = new Set(["rw", "randrw", "readwrite"]);

/** Edits the common fio options of each job; other options are kept and listed. */
export function JobEditor({ drafts, onChange }: JobEditorProps) {
  const update = (key: string, patch: Partial<JobDraft>) =>
    onChange(drafts.map((draft) => (draft.key === key ? { ...draft, ...patch } : draft)));
  const remove = (key: string) => onChange(drafts.filter((draft) => draft.key !== key));

  return (
    <div className="job-editor">
      {drafts.length === 0 ? <p className="muted">No jobs yet: pick a preset, paste a job file or add a job.</p> : null}
      {drafts.map((draft, index) => {
        const extras = Object.entries(draft.extra);
        return (
          <fieldset key={draft.key} className="job-fieldset">
            <legend>
              Job {index + 1}: {draft.name || "(unnamed)"}
            </legend>
            <div className="form-grid form-grid-dense">
              <FormField label="Job name">
                {(c) => <input {...c} className="mono" value={draft.name} onChange={(e) => update(draft.key, { name: e.target.value })} />}
              </FormField>
              <FormField label="rw">
                {(c) => (
                  <select {...c} value={draft.rw} onChange={(e) => update(draft.key, { rw: e.target.value })}>
                    {(RW_MODES as readonly string[]).includes(draft.rw) ? null : <option value={draft.rw}>{draft.rw}</option>}
                    {RW_MODES.map((mode) => (
                      <option key={mode} value={mode}>
                        {mode}
                      </option>
                    ))}
                  </select>
                )}
              </FormField>
              <FormField label="bs">
                {(c) => (
                  <input {...c} className="mono" placeholder="4k" value={draft.bs} onChange={(e) => update(draft.key, { bs: e.target.value })} />
                )}
              </FormField>
              <FormField label="iodepth">
                {(c) => (
                  <input {...c} type="number" min={1} value={draft.iodepth} onChange={(e) => update(draft.key, { iodepth: e.target.value })} />
                )}
              </FormField>
              <FormField label="numjobs">
                {(c) => (
                  <input {...c} type="number" min={1} value={draft.numjobs} onChange={(e) => update(draft.key, { numjobs: e.target.value })} />
                )}
              </FormField>
              <FormField label="size">
                {(c) => (
                  <input {...c} className="mono" placeholder="10g or 100%" value={draft.size} onChange={(e) => update(draft.key, { size: e.target.value })} />
                )}
              </FormField>
              <FormField label="runtime (s)">
                {(c) => (
                  <input {...c} type="number" min={1} value={draft.runtime} onChange={(e) => update(draft.key, { runtime: e.target.value })} />
                )}
              </FormField>
              <FormField label="ioengine">
                {(c) => (
                  <>
                    <input
                      {...c}
                      className="mono"
                      list="ioengine-suggestions"
                      value={draft.ioengine}
                      onChange={(e) => update(draft.key, { ioengine: e.target.value })}
                    />
                    {index === 0 ? (
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
                <FormField label="rwmixread (%)">
                  {(c) => (
                    <input
                      {...c}
                      type="number"
                      min={0}
                      max={100}
                      value={draft.rwmixread}
                      onChange={(e) => update(draft.key, { rwmixread: e.target.value })}
                    />
                  )}
                </FormField>
              ) : null}
              <div className="field field-checks">
                <label>
                  <input type="checkbox" checked={draft.direct} onChange={(e) => update(draft.key, { direct: e.target.checked })} /> direct
                  (O_DIRECT)
                </label>
                <label>
                  <input
                    type="checkbox"
                    checked={draft.time_based}
                    onChange={(e) => update(draft.key, { time_based: e.target.checked })}
                  />{" "}
                  time_based
                </label>
              </div>
            </div>
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
