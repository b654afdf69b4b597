import { useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import { fieldErrors } from "../../../lib/api-client";
import type { Run } from "../../../lib/api/types";
import { useUpdateRun } from "../api/update-run";

/** The run's label and note, and (for members) a form to change them at any time. */
export function RunLabelEditor({ run, canEdit }: { run: Run; canEdit: boolean }) {
  const [editing, setEditing] = useState(false);
  const [label, setLabel] = useState("");
  const [note, setNote] = useState("");
  const update = useUpdateRun();
  const errors = fieldErrors(update.error, ["label", "note"]);

  function open() {
    setLabel(run.label ?? "");
    setNote(run.note ?? "");
    setEditing(true);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    update.mutate(
      { id: run.id, body: { label: label.trim() || null, note: note.trim() || null } },
      { onSuccess: () => setEditing(false) },
    );
  }

  if (!editing) {
    return (
      <div className="run-label">
        <p>
          <strong>Label:</strong> <span data-testid="run-label">{run.label ?? <span className="muted">none</span>}</span>
          {run.note ? (
            <>
              {" "}
              · <strong>Note:</strong> <span data-testid="run-note">{run.note}</span>
            </>
          ) : null}{" "}
          {canEdit ? (
            <button type="button" className="button button-small" onClick={open}>
              Edit label and note
            </button>
          ) : null}
        </p>
      </div>
    );
  }
  return (
    <form className="form inline-form" aria-label="Label and note" onSubmit={submit}>
      {update.error ? <ApiErrorAlert error={update.error} inlineFields={["label", "note"]} /> : null}
      <div className="form-grid form-grid-dense">
        <FormField label="Run label" optional errors={errors.label} hint='e.g. "after firmware 2.1"'>
          {(c) => <input {...c} value={label} maxLength={200} onChange={(e) => setLabel(e.target.value)} />}
        </FormField>
        <FormField label="Run note" optional errors={errors.note} hint='e.g. "nconnect=8"'>
          {(c) => <textarea {...c} rows={2} value={note} maxLength={4000} onChange={(e) => setNote(e.target.value)} />}
        </FormField>
      </div>
      <div className="button-row">
        <button type="submit" className="button button-primary button-small" disabled={update.isPending}>
          Save label and note
        </button>
        <button type="button" className="button button-small" onClick={() => setEditing(false)}>
          Discard
        </button>
      </div>
    </form>
  );
}
