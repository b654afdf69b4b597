import type { ReactNode } from "react";
import { CopyButton } from "./copy-button";
import { FormField } from "./form-field";

interface OneTimeSecretProps {
  /** Accessible name of the region, e.g. "New API token". */
  title: string;
  /** Label of the read-only field holding the secret, e.g. "API token". */
  label: string;
  value: string;
  copyLabel: string;
  /** What was created, said first. */
  intro?: ReactNode;
  /** How to use it (commands), after the secret. */
  children?: ReactNode;
  onDone: () => void;
}

/** A secret the server shows only once: read-only field, copy button, and a Done that forgets it. */
export function OneTimeSecret({ title, label, value, copyLabel, intro, children, onDone }: OneTimeSecretProps) {
  return (
    <div className="token-panel" role="region" aria-label={title}>
      <p>
        {intro ? <>{intro} </> : null}
        <strong>Copy it now: it is shown only once.</strong>
      </p>
      <FormField label={label}>
        {(control) => (
          <input {...control} className="mono" readOnly value={value} onFocus={(event) => event.target.select()} />
        )}
      </FormField>
      <div className="button-row">
        <CopyButton text={value} label={copyLabel} />
      </div>
      {children}
      <div className="button-row">
        <button type="button" className="button" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
