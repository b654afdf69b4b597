import { useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import { fieldErrors } from "../../../lib/api-client";
import { useAcknowledgeChangePoint } from "../api/acknowledge-change-point";

/** A comment and a button: marks one change as looked at. */
export function AcknowledgeForm({ changeId, onDone }: { changeId: number; onDone?: () => void }) {
  const [comment, setComment] = useState("");
  const mutation = useAcknowledgeChangePoint();
  const errors = fieldErrors(mutation.error, ["comment"]);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    mutation.mutate({ id: changeId, body: { comment: comment.trim() } }, { onSuccess: () => onDone?.() });
  }

  return (
    <form className="acknowledge-form" aria-label={`Acknowledge change ${changeId}`} onSubmit={handleSubmit}>
      <FormField label="Comment" errors={errors.comment} hint="What you found: a known cause, a ticket, a decision.">
        {(c) => <textarea {...c} rows={2} value={comment} maxLength={2000} onChange={(e) => setComment(e.target.value)} />}
      </FormField>
      <button type="submit" className="button button-small" disabled={mutation.isPending || comment.trim() === ""}>
        Acknowledge
      </button>
      <ApiErrorAlert error={mutation.error} inlineFields={["comment"]} title="Could not acknowledge" />
    </form>
  );
}
