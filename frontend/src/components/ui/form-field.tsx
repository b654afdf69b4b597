import { useId, type ReactNode } from "react";

export interface ControlProps {
  id: string;
  "aria-invalid": boolean | undefined;
  "aria-describedby": string | undefined;
}

interface FormFieldProps {
  label: string;
  hint?: ReactNode;
  errors?: string[];
  optional?: boolean;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}

/** A label, its control, an optional hint and the server's reasons for rejecting the value. */
export function FormField({ label, hint, errors = [], optional, className, children }: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, errors.length ? errorId : null].filter(Boolean).join(" ");
  return (
    <div className={`field${className ? ` ${className}` : ""}`}>
      <label htmlFor={id}>
        {label}
        {optional ? <span className="field-optional"> (optional)</span> : null}
      </label>
      {children({
        id,
        "aria-invalid": errors.length ? true : undefined,
        "aria-describedby": describedBy || undefined,
      })}
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {errors.length ? (
        <p id={errorId} className="field-error">
          {errors.join("; ")}
        </p>
      ) : null}
    </div>
  );
}
