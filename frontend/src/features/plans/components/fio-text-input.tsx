import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import type { FioJob, FioValidateResponse } from "../../../lib/api/types";
import { validateFioQueryOptions } from "../api/validate-fio";

const DEBOUNCE_MS = 400;

type Validation =
  | { text: string; status: "valid"; jobs: FioJob[]; notices: FioValidateResponse["notices"] }
  | { text: string; status: "invalid"; error: unknown };

interface FioTextInputProps {
  /** Called with the parsed jobs each time a new text validates. */
  onParsed: (jobs: FioJob[]) => void;
}

/** A fio job file or command line, validated by the server as it is typed. */
export function FioTextInput({ onParsed }: FioTextInputProps) {
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const [validation, setValidation] = useState<Validation | null>(null);

  useEffect(() => {
    if (!text.trim()) return;
    let stale = false;
    const timer = window.setTimeout(() => {
      queryClient.fetchQuery(validateFioQueryOptions(text)).then(
        (data) => {
          if (stale) return;
          const jobs = data.jobs;
          setValidation({ text, status: "valid", jobs, notices: data.notices ?? [] });
          onParsed(jobs);
        },
        (error: unknown) => {
          if (!stale) setValidation({ text, status: "invalid", error });
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      stale = true;
      window.clearTimeout(timer);
    };
  }, [text, queryClient, onParsed]);

  const current = validation && validation.text === text ? validation : null;
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
        {text.trim() === "" ? null : !current ? (
          <p className="muted small">Validating…</p>
        ) : current.status === "invalid" ? (
          <ApiErrorAlert error={current.error} title="fio rejected this" />
        ) : (
          <>
            <p className="alert alert-ok small">
              Valid: {current.jobs.length} job{current.jobs.length === 1 ? "" : "s"} (
              {current.jobs.map((job) => job.name).join(", ")}) loaded into the editor below.
            </p>
            {current.notices && current.notices.length > 0 ? (
              <ul className="small" aria-label="How the paste was read">
                {current.notices.map((notice, index) => (
                  <li key={index}>
                    Read as: <code>{notice.value ? `${notice.option}=${notice.value}` : notice.option}</code>{" "}
                    — {notice.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </>
        )}
      </div>
    </div>
  );
}
