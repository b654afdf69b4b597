import { useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import { fieldErrors } from "../../../lib/api-client";
import type { ResultImport, Target } from "../../../lib/api/types";
import { formatBytes, formatDateTime, formatIops } from "../../../lib/format";
import { activeDirections } from "../../../lib/latency";
import { MAX_IMPORT_BYTES, useImportResults } from "../api/import-results";

export type ImportTargetOption = Pick<Target, "id" | "name" | "host_name" | "path" | "storage_class">;

const FIELDS = ["file", "target_id", "storage_class", "host_name", "label"] as const;

const FORMAT_NAMES: Record<string, string> = {
  json: "fio JSON",
  "json+": "fio JSON+ (with latency histograms)",
  text: "fio text output",
  client_server: "fio client/server JSON",
};

const EMPTY = { targetId: "", storageClass: "", hostName: "", label: "" };

type ImportDetails = typeof EMPTY;

/** Where the results belong: target, storage class, host and label, each optional. */
function ImportDetailsFields({
  values,
  set,
  errors,
  targets,
  fileName,
}: {
  values: ImportDetails;
  set: (patch: Partial<ImportDetails>) => void;
  errors: Record<string, string[]>;
  targets: ImportTargetOption[];
  fileName: string | undefined;
}) {
  const target = targets.find((item) => String(item.id) === values.targetId);
  return (
    <>
    <FormField label="Target" optional errors={errors.target_id} hint="Files the results under one of your targets.">
      {(c) => (
        <select {...c} name="target_id" value={values.targetId} onChange={(e) => set({ targetId: e.target.value })}>
          <option value="">None</option>
          {targets.map((item) => (
            <option key={item.id} value={String(item.id)}>
              {item.name} ({item.host_name}:{item.path})
            </option>
          ))}
        </select>
      )}
    </FormField>
    <FormField label="Storage class" optional errors={errors.storage_class}>
      {(c) => (
        <input
          {...c}
          name="storage_class"
          maxLength={120}
          placeholder={target?.storage_class ?? ""}
          value={values.storageClass}
          onChange={(e) => set({ storageClass: e.target.value })}
        />
      )}
    </FormField>
    <FormField label="Host name" optional errors={errors.host_name} hint="The client fio ran on, if the output does not say.">
      {(c) => (
        <input
          {...c}
          name="host_name"
          maxLength={255}
          value={values.hostName}
          onChange={(e) => set({ hostName: e.target.value })}
        />
      )}
    </FormField>
    <FormField label="Label" optional errors={errors.label} hint="Defaults to the target's name, else the file name.">
      {(c) => (
        <input
          {...c}
          name="label"
          maxLength={200}
          placeholder={target?.name ?? fileName ?? ""}
          value={values.label}
          onChange={(e) => set({ label: e.target.value })}
        />
      )}
    </FormField>
    </>
  );
}

/** Uploads an fio output (json, json+, client/server, text) into the team's history. */
export function ImportResultsForm({ targets }: { targets: ImportTargetOption[] }) {
  const [values, setValues] = useState(EMPTY);
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | undefined>();
  // A new key empties the file input after an import (file inputs cannot be set from state).
  const [fileKey, setFileKey] = useState(0);
  const importMutation = useImportResults();
  const errors = fieldErrors(importMutation.error, FIELDS);
  const set = (patch: Partial<ImportDetails>) => setValues((current) => ({ ...current, ...patch }));

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!file) {
      setFileProblem("Choose the file fio wrote (or the terminal output saved to a file).");
      return;
    }
    if (file.size > MAX_IMPORT_BYTES) {
      setFileProblem(`${file.name} is ${formatBytes(file.size)}; the server accepts at most ${formatBytes(MAX_IMPORT_BYTES)}.`);
      return;
    }
    setFileProblem(undefined);
    importMutation.mutate(
      {
        file,
        target_id: values.targetId ? Number(values.targetId) : undefined,
        storage_class: values.storageClass.trim(),
        host_name: values.hostName.trim(),
        label: values.label.trim(),
      },
      {
        onSuccess: () => {
          setFile(null);
          setFileKey((key) => key + 1);
        },
      },
    );
  }

  return (
    <section className="panel" aria-labelledby="import-heading">
      <h2 id="import-heading">Import fio output</h2>
      <form className="form" onSubmit={handleSubmit} aria-labelledby="import-heading">
        <p className="small muted">
          Old or external measurements join the history marked imported: fio&apos;s JSON or JSON+ (
          <code>--output-format=json</code>), client/server output, or the text it printed.
        </p>
        {importMutation.error ? (
          <ApiErrorAlert error={importMutation.error} inlineFields={FIELDS} title="Not imported" />
        ) : null}
        {importMutation.isSuccess && !importMutation.isPending ? <ImportSummary report={importMutation.data} /> : null}
        <FormField
          label="fio output file"
          errors={[fileProblem, ...(errors.file ?? [])].filter((item): item is string => Boolean(item))}
          hint={`Up to ${formatBytes(MAX_IMPORT_BYTES)}.`}
        >
          {(c) => (
            <input
              {...c}
              key={fileKey}
              type="file"
              name="file"
              // Checked on submit with a message that says what to choose, like the other forms.
              aria-required="true"
              accept=".json,.txt,.log,.out,application/json,text/plain"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setFileProblem(undefined);
              }}
            />
          )}
        </FormField>
        <ImportDetailsFields values={values} set={set} errors={errors} targets={targets} fileName={file?.name} />
        <button type="submit" className="button button-primary" disabled={importMutation.isPending}>
          Import
        </button>
      </form>
    </section>
  );
}

function ImportSummary({ report }: { report: ResultImport }) {
  const count = report.results.length;
  const ids = report.results.map((result) => `#${result.id}`).join(", ");
  return (
    <div role="status" className={report.duplicate ? "alert alert-info" : "alert alert-ok"}>
      {report.duplicate ? (
        <p>
          Already imported on {formatDateTime(report.first_stored_at)}: this exact output is result{count === 1 ? "" : "s"}{" "}
          {ids} in the history. Nothing was stored again.
        </p>
      ) : (
        <p>
          Imported {count} result{count === 1 ? "" : "s"} from {FORMAT_NAMES[report.source_format] ?? report.source_format}
          {report.fio_version ? ` (${report.fio_version})` : " (fio version not stated)"}.
        </p>
      )}
      <ul className="alert-list small">
        {report.results.map((result) => (
          <li key={result.id}>
            <span className="mono">{result.job_name}</span> on {result.host_name}
            {result.label ? ` · ${result.label}` : ""}
            {result.storage_class ? ` · ${result.storage_class}` : ""}:{" "}
            {activeDirections(result)
              .map(([name, direction]) => `${name} ${formatIops(direction.iops)} IOPS`)
              .join(", ") || "no I/O"}
            {result.partial ? " (partial)" : ""}
            {" · measured "}
            <time dateTime={result.measured_at}>{formatDateTime(result.measured_at)}</time>
          </li>
        ))}
      </ul>
    </div>
  );
}
