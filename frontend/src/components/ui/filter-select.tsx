import { FormField } from "./form-field";

interface FilterSelectProps {
  label: string;
  /** "" means no filter. */
  value: string;
  options: readonly string[];
  onChange: (value: string) => void;
}

/** A list filter beside a section heading: "All", or one of the values. */
export function FilterSelect({ label, value, options, onChange }: FilterSelectProps) {
  return (
    <FormField label={label} className="field-inline">
      {(control) => (
        <select {...control} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">All</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
