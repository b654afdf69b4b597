import { useEffect, useState, type FormEvent } from "react";
import { FormField } from "../../../components/ui/form-field";
import type { TargetName } from "./results-table";

export type ResultOrigin = "" | "measured" | "imported";

export interface ResultFilterValues {
  storageClass: string;
  targetId: string;
  origin: ResultOrigin;
}

interface ResultsFiltersProps {
  values: ResultFilterValues;
  targets: TargetName[];
  /** Known storage classes, offered as suggestions. */
  storageClasses: string[];
  onChange: (patch: Partial<ResultFilterValues>) => void;
}

/** Typing waits this long before filtering, so each keystroke is not a request. */
const TYPING_DELAY_MS = 400;

/** Storage class (typed), target and origin; the page keeps them in the URL. */
export function ResultsFilters({ values, targets, storageClasses, onChange }: ResultsFiltersProps) {
  const [draft, setDraft] = useState(values.storageClass);
  const [applied, setApplied] = useState(values.storageClass);
  // The URL changed from elsewhere (back button, a link): show what is applied.
  if (values.storageClass !== applied) {
    setApplied(values.storageClass);
    setDraft(values.storageClass);
  }

  useEffect(() => {
    if (draft.trim() === values.storageClass) return;
    const timer = window.setTimeout(() => onChange({ storageClass: draft.trim() }), TYPING_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [draft, values.storageClass, onChange]);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (draft.trim() !== values.storageClass) onChange({ storageClass: draft.trim() });
  }

  return (
    <form className="filters" role="search" aria-label="Result filters" onSubmit={handleSubmit}>
      <FormField label="Storage class" className="field-inline" hint="Exact name">
        {(c) => (
          <>
            <input
              {...c}
              type="search"
              name="storage_class"
              list="result-storage-classes"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
            />
            <datalist id="result-storage-classes">
              {storageClasses.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
          </>
        )}
      </FormField>
      <FormField label="Target" className="field-inline">
        {(c) => (
          <select {...c} name="target_id" value={values.targetId} onChange={(e) => onChange({ targetId: e.target.value })}>
            <option value="">All targets</option>
            {values.targetId && !targets.some((target) => String(target.id) === values.targetId) ? (
              // A target id from a link whose target is not (yet) listed: say what is filtered.
              <option value={values.targetId}>Target #{values.targetId}</option>
            ) : null}
            {targets.map((target) => (
              <option key={target.id} value={String(target.id)}>
                {target.name}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField label="Origin" className="field-inline">
        {(c) => (
          <select
            {...c}
            name="origin"
            value={values.origin}
            onChange={(e) => onChange({ origin: e.target.value as ResultOrigin })}
          >
            <option value="">All</option>
            <option value="measured">Measured by runs</option>
            <option value="imported">Imported</option>
          </select>
        )}
      </FormField>
    </form>
  );
}
