import { useState, type FormEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import { fieldErrors } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";
import { useSetRetention } from "../api/team-retention";

const FIELDS = ["raw_output_days", "series_days"] as const;

function days(value: number | null): string {
  return value === null ? "" : String(value);
}

function forever(value: string): number | null {
  return value.trim() === "" ? null : Number(value);
}

/** How long the team keeps raw outputs and per-second series; owners change it, others read it. */
export function RetentionForm({ retention, canManage }: { retention: Schema<"RetentionOut">; canManage: boolean }) {
  const [raw, setRaw] = useState(days(retention.raw_output_days));
  const [series, setSeries] = useState(days(retention.series_days));
  const save = useSetRetention();
  const errors = fieldErrors(save.error, FIELDS);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate({ raw_output_days: forever(raw), series_days: forever(series) });
  }

  return (
    <form className="form" aria-labelledby="retention-heading" onSubmit={handleSubmit}>
      <p className="note muted small">
        Results and their figures are kept forever. Empty: keep forever.
      </p>
      {save.error ? <ApiErrorAlert error={save.error} inlineFields={FIELDS} /> : null}
      <FormField label="Raw fio outputs, days" optional errors={errors.raw_output_days}>
        {(control) => (
          <input {...control} type="number" min={1} max={3650} value={raw} disabled={!canManage} onChange={(e) => setRaw(e.target.value)} />
        )}
      </FormField>
      <FormField label="Per-second series, days" optional errors={errors.series_days}>
        {(control) => (
          <input {...control} type="number" min={1} max={3650} value={series} disabled={!canManage} onChange={(e) => setSeries(e.target.value)} />
        )}
      </FormField>
      {canManage ? (
        <button type="submit" disabled={save.isPending}>
          {save.isSuccess && !save.isPending ? "Saved" : "Save retention"}
        </button>
      ) : null}
    </form>
  );
}
