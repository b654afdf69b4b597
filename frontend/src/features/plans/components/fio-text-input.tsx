import { useEffect, useState } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import type { FioJob } from "../../../lib/api-types";
import { useValidateFio } from "../api/validate-fio";

const DEBOUNCE_MS = 400;

interface FioTextInputProps {
  /** Called with the parsed jobs each time a new text validates. */
  onParsed: (jobs: FioJob[]) => void;
}

/** A fio job file or command line, validated by the server as it is typed. */
export function FioTextInput({ onParsed }: FioTextInputProps) {
  const [text, setText] = useState("");
  const [debounced, setDebounced] = useState("");
  const [applied, setApplied] = useState<string | null>(null);

  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(text), DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text]);

  const validation = useValidateFio(debounced);
  const isCurrent = !validation.isPlaceholderData && debounced.trim() !== "";
  const parsedJobs = isCurrent && validation.isSuccess ? validation.data.jobs : null;

  useEffect(() => {
    if (parsedJobs && applied !== debounced) {
      setApplied(debounced);
      onParsed(parsedJobs);
    }
  }, [parsedJobs, applied, debounced, onParsed]);

  const pending = text !== debounced || validation.isFetching;
  return (
    <div className="fio-text-input">
      <FormField
        label="fio job file or command line"
        hint={
          <>
            e.g. <code>fio --name=randread --rw=randread --bs=4k --iodepth=32 --direct=1 --runtime=60 --time_based</code> or
            an ini job file with <code>[global]</code> and job sections.
          </>
        }
      >
        {(control) => (
          <textarea
            {...control}
            className="mono"
            rows={8}
            spellCheck={false}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        )}
      </FormField>
      <div aria-live="polite" className="validation-status">
        {text.trim() === "" ? null : pending ? (
          <p className="muted small">Validating…</p>
        ) : validation.error && isCurrent ? (
          <ApiErrorAlert error={validation.error} title="fio rejected this" />
        ) : parsedJobs ? (
          <p className="alert alert-ok small">
            Valid: {parsedJobs.length} job{parsedJobs.length === 1 ? "" : "s"} ({parsedJobs.map((job) => job.name).join(", ")})
            loaded into the editor below.
          </p>
        ) : null}
      </div>
    </div>
  );
}
