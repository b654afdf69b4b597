import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { useRelabelResults } from "../api/update-results";

interface ResultsSelectionBarProps {
  selected: number[];
  canRelabel: boolean;
  onClear: () => void;
}

/** What to do with the ticked results: compare them side by side, or give them one label. */
export function ResultsSelectionBar({ selected, canRelabel, onClear }: ResultsSelectionBarProps) {
  const navigate = useNavigate();
  const [label, setLabel] = useState("");
  const relabel = useRelabelResults();
  const count = selected.length;

  function relabelAll(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    relabel.mutate({ ids: selected, label: label.trim() || null }, { onSuccess: () => setLabel("") });
  }

  return (
    <div className="selection-bar" role="region" aria-label="Selected results">
      <p className="small" aria-live="polite">
        {count === 0 ? "Tick results to compare or relabel them." : `${count} result${count === 1 ? "" : "s"} selected`}
      </p>
      <div className="button-row">
        <button
          type="button"
          className="button button-primary button-small"
          disabled={count < 2}
          title={count < 2 ? "Select at least two results" : undefined}
          onClick={() => void navigate(`/compare?ids=${selected.join(",")}`)}
        >
          Compare{count >= 2 ? ` ${count}` : ""}
        </button>
        {count > 0 ? (
          <button type="button" className="button button-small" onClick={onClear}>
            Clear selection
          </button>
        ) : null}
      </div>
      {canRelabel && count > 0 ? (
        <form className="inline-form" onSubmit={relabelAll} aria-label="Relabel the selected results">
          <label htmlFor="selection-label">Label for the selected</label>
          <input
            id="selection-label"
            name="label"
            maxLength={200}
            value={label}
            placeholder="e.g. after firmware 2.1"
            onChange={(e) => setLabel(e.target.value)}
          />
          <button type="submit" className="button button-small" disabled={relabel.isPending}>
            Relabel {count}
          </button>
        </form>
      ) : null}
      {relabel.error ? <ApiErrorAlert error={relabel.error} title="Not relabelled" /> : null}
      {relabel.isSuccess && !relabel.isPending ? (
        <p role="status" className="small">
          Relabelled {relabel.data.length} result{relabel.data.length === 1 ? "" : "s"}.
        </p>
      ) : null}
    </div>
  );
}
