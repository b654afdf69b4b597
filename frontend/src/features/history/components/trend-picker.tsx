import { FormField } from "../../../components/ui/form-field";
import { figureLabel } from "../../../lib/figures";
import type { Figure, IoDirection } from "../api/get-trend";
import type { Series } from "../api/list-series";
import { FIGURES, isDirection, isFigure } from "./trend-labels";

export interface TrendSelection {
  targetId: string;
  job: string;
  direction: IoDirection;
  metric: Figure;
}

interface TrendPickerProps {
  value: TrendSelection;
  targets: { id: number; name: string }[];
  /** The jobs and directions measured on the chosen target. */
  series: Series[];
  onChange: (patch: Partial<TrendSelection>) => void;
}

/** Which trend to show: a target, one of its jobs and directions, and a figure. */
export function TrendPicker({ value, targets, series, onChange }: TrendPickerProps) {
  const jobKey = value.job ? `${value.job}\u0000${value.direction}` : "";
  return (
    <form className="filters" aria-label="Trend" onSubmit={(event) => event.preventDefault()}>
      <FormField label="Target" className="field-inline">
        {(c) => (
          <select {...c} value={value.targetId} onChange={(e) => onChange({ targetId: e.target.value, job: "" })}>
            <option value="">Choose a target</option>
            {targets.map((target) => (
              <option key={target.id} value={String(target.id)}>
                {target.name}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField label="Job and direction" className="field-inline">
        {(c) => (
          <select
            {...c}
            value={jobKey}
            disabled={!value.targetId}
            onChange={(e) => {
              const [job = "", direction = "read"] = e.target.value.split("\u0000");
              onChange({ job, direction: isDirection(direction) ? direction : "read" });
            }}
          >
            <option value="">{series.length ? "Choose a job" : "No results on this target"}</option>
            {series.map((s) => (
              <option key={`${s.job}-${s.direction}`} value={`${s.job}\u0000${s.direction}`}>
                {`${s.job} · ${s.direction} (${s.results})`}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField label="Figure" className="field-inline">
        {(c) => (
          <select
            {...c}
            value={value.metric}
            onChange={(e) => {
              if (isFigure(e.target.value)) onChange({ metric: e.target.value });
            }}
          >
            {FIGURES.map((figure) => (
              <option key={figure} value={figure}>
                {figureLabel(figure)}
              </option>
            ))}
          </select>
        )}
      </FormField>
    </form>
  );
}
