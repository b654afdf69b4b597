import { useId } from "react";

const HINT =
  "Off: each host writes its own files, so no host reads what another cached. On: all hosts work on the same files, laid out once.";

/** How a plan or run lays out files across its hosts, in a few words. */
export function sharedFilesLabel(shared: boolean): string {
  return shared ? "one set shared by all hosts" : "each host its own";
}

interface SharedFilesFieldProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** Said before the hint, e.g. when the choice applies. */
  scope?: string;
  errors?: string[];
}

/** Whether the hosts of a multi-host run on a directory share one set of files (sent as shared_files). */
export function SharedFilesField({ checked, onChange, scope, errors = [] }: SharedFilesFieldProps) {
  const id = useId();
  const describedBy = [`${id}-hint`, errors.length ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label className="field-check">
        <input
          type="checkbox"
          name="shared_files"
          checked={checked}
          aria-invalid={errors.length ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.checked)}
        />
        Hosts share one set of files
      </label>
      <p id={`${id}-hint`} className="field-hint">
        {scope ? `${scope} ` : ""}
        {HINT}
      </p>
      {errors.length ? (
        <p id={`${id}-error`} className="field-error">
          {errors.join("; ")}
        </p>
      ) : null}
    </div>
  );
}
