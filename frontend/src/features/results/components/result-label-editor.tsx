import { useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { useRelabelResults } from "../api/update-results";

interface ResultLabelEditorProps {
  resultId: number;
  label: string | null;
  /** Shown when the result has no label of its own (its target's name). */
  fallback?: string;
  canEdit: boolean;
}

/** A result's label, relabelled in place (members and owners). */
export function ResultLabelEditor({ resultId, label, fallback, canEdit }: ResultLabelEditorProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(label ?? "");
  const relabel = useRelabelResults();
  const shown = label ?? fallback;

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    relabel.mutate({ ids: [resultId], label: draft.trim() || null }, { onSuccess: () => setEditing(false) });
  }

  if (!editing) {
    return (
      <span className="label-cell">
        {shown ?? <span className="muted">—</span>}
        {canEdit ? (
          <button
            type="button"
            className="button button-small button-link"
            aria-label={`Relabel result ${resultId}`}
            onClick={() => {
              setDraft(label ?? "");
              relabel.reset();
              setEditing(true);
            }}
          >
            Relabel
          </button>
        ) : null}
      </span>
    );
  }
  const inputId = `result-label-${resultId}`;
  return (
    <form className="inline-form" onSubmit={save} aria-label={`New label for result ${resultId}`}>
      <label htmlFor={inputId} className="sr-only">
        Label of result {resultId}
      </label>
      <input
        id={inputId}
        name="label"
        maxLength={200}
        value={draft}
        // The field the user just asked for.
        autoFocus
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") setEditing(false);
        }}
      />
      <button type="submit" className="button button-small button-primary" disabled={relabel.isPending}>
        Save
      </button>
      <button type="button" className="button button-small" onClick={() => setEditing(false)}>
        Cancel
      </button>
      {relabel.error ? <ApiErrorAlert error={relabel.error} title="Not relabelled" /> : null}
    </form>
  );
}
