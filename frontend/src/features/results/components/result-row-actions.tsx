import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { ConfirmAction } from "../../../components/ui/confirm-action";
import type { Result } from "../../../lib/api/types";
import { useDeleteResult } from "../api/delete-result";
import { hasJobFile, jobFileUrl, rawOutputUrl } from "../api/result-files";

interface ResultRowActionsProps {
  result: Pick<Result, "id" | "run_id" | "options" | "job_name" | "label">;
  /** Only team owners delete results. */
  canDelete: boolean;
  onDeleted?: () => void;
}

/** Download fio's raw output and the job file; delete (owners, asked once more). */
export function ResultRowActions({ result, canDelete, onDeleted }: ResultRowActionsProps) {
  const remove = useDeleteResult();
  return (
    <div className="row-actions">
      <a className="button button-small" href={rawOutputUrl(result.id)} download aria-label={`Raw fio output of result ${result.id}`}>
        Raw output
      </a>
      {hasJobFile(result) ? (
        <a className="button button-small" href={jobFileUrl(result.id)} download aria-label={`Job file of result ${result.id}`}>
          Job file
        </a>
      ) : null}
      {canDelete ? (
        <ConfirmAction
          label="Delete"
          name={`Delete result ${result.id}`}
          groupLabel={`Delete result ${result.id}?`}
          question={
            <>
              Delete result {result.id} (<span className="mono">{result.job_name}</span>
              {result.label ? `, ${result.label}` : ""}) from the history? Its raw output goes with it; the audit log keeps
              who deleted it.
            </>
          }
          confirmLabel="Delete result"
          disabled={remove.isPending}
          onConfirm={() => remove.mutate(result.id, { onSuccess: onDeleted })}
        />
      ) : null}
      {remove.error ? <ApiErrorAlert error={remove.error} title="Not deleted" /> : null}
    </div>
  );
}
