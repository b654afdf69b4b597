import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { CopyButton } from "../../../components/ui/copy-button";
import { comparisonExportUrl, type Comparison } from "../api/get-comparison";
import { useCreateSavedView } from "../api/create-saved-view";

/** Choose the baseline among the compared results. */
export function BaselineSelect({ comparison, onChange }: { comparison: Comparison; onChange: (id: number) => void }) {
  const id = useId();
  return (
    <div className="field-inline">
      <label htmlFor={id}>Baseline</label>
      <select id={id} value={comparison.baseline_result_id} onChange={(event) => onChange(Number(event.target.value))}>
        {comparison.sides.flatMap((side) =>
          side.result_ids.map((resultId) => (
            <option key={resultId} value={resultId}>
              #{resultId} · {side.title}
            </option>
          )),
        )}
      </select>
    </div>
  );
}

/** Export the comparison, copy its permalink, or save it under a name for the team. */
export function CompareActions({ comparison, canSave }: { comparison: Comparison; canSave: boolean }) {
  const params = { ids: comparison.result_ids, baseline: comparison.baseline_result_id, pool: comparison.pooling };
  const permalink = `${window.location.origin}${comparison.permalink}`;
  const save = useCreateSavedView();
  const [name, setName] = useState("");
  const nameId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({
      name: name.trim(),
      kind: "compare",
      query: { ids: comparison.result_ids.join(","), baseline: String(comparison.baseline_result_id) },
    });
  }

  return (
    <div className="compare-actions">
      <a className="button" href={comparisonExportUrl(params, "csv")} download>
        Export CSV
      </a>
      <a className="button" href={comparisonExportUrl(params, "json")} download>
        Export JSON
      </a>
      <CopyButton text={permalink} label="Copy link" />
      {canSave ? (
        <form className="field-inline" onSubmit={submit} aria-label="Save view">
          <label htmlFor={nameId}>View name</label>
          <input id={nameId} value={name} maxLength={120} required onChange={(event) => setName(event.target.value)} />
          <button type="submit" className="button" disabled={save.isPending || !name.trim()}>
            Save view
          </button>
        </form>
      ) : null}
      {save.data ? (
        <p role="status" className="small">
          Saved as “{save.data.name}”: <Link to={save.data.path}>{`${window.location.origin}${save.data.path}`}</Link>
        </p>
      ) : null}
      {save.error ? <ApiErrorAlert error={save.error} title="The view was not saved" /> : null}
    </div>
  );
}
