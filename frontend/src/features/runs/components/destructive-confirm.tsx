import { useId } from "react";
import type { TargetOption } from "./run-choices";

interface DestructiveConfirmProps {
  target: TargetOption;
  writingJobs: string[];
  checked: boolean;
  error: string | undefined;
  onChange: (checked: boolean) => void;
}

/** The starter's explicit consent to write to a block device (sent as confirm_destructive). */
export function DestructiveConfirm({ target, writingJobs, checked, error, onChange }: DestructiveConfirmProps) {
  const id = useId();
  const describedBy = [`${id}-what`, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="confirm-box">
      <label className="check-confirm">
        <input
          type="checkbox"
          name="confirm_destructive"
          required
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span>
          I understand this run destroys the data on <span className="mono">{target.path}</span>
        </span>
      </label>
      <p id={`${id}-what`} className="small">
        {writingJobs.length === 1 ? "Job" : "Jobs"} {writingJobs.join(", ")} {writingJobs.length === 1 ? "writes" : "write"}{" "}
        to the block device {target.name}.
        {target.destructive
          ? ""
          : " A team owner has not allowed destructive writes on it yet (Targets page): the server will refuse the run until then."}
      </p>
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
