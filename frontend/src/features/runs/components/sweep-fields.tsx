import { FormField } from "../../../components/ui/form-field";
import type { RunCreate } from "../../../lib/api/types";
import type { SweepPreset } from "../api/list-sweep-presets";

export const SWEEP_OPTIONS = ["iodepth", "numjobs", "bs", "rwmixread", "rate", "rate_iops"] as const;

/** The sweep as typed: a preset (its job runs when no plan is chosen), the option, values, bound. */
export interface SweepChoice {
  presetId: string;
  option: string;
  values: string;
  stopMs: string;
  /** What the bound is on: each second's mean latency, or fio's p99 of the running point so far. */
  stopFigure: "lat_mean_ns" | "clat_p99_ns";
  precondition: boolean;
}

export const NO_SWEEP: SweepChoice = { presetId: "", option: "iodepth", values: "", stopMs: "", stopFigure: "lat_mean_ns", precondition: false };

/** A preset's axis as a list of values: its own, or its geometric range written out. */
export function presetValues(preset: SweepPreset): string {
  const axis = preset.sweep[0];
  if (!axis) return "";
  if (axis.values) return axis.values.join(", ");
  const values: number[] = [];
  for (let value = axis.from ?? 1; value <= (axis.to ?? 0); value *= axis.factor ?? 2) values.push(Math.round(value));
  return values.join(", ");
}

/** The body's sweep fields from the choice (none when no values are given). */
export function sweepBody(choice: SweepChoice): Pick<RunCreate, "sweep" | "sweep_stop" | "precondition"> {
  const values = choice.values
    .split(/[\s,]+/)
    .filter((part) => part !== "")
    .map(Number);
  const filled = choice.precondition ? { precondition: true } : {};
  if (values.length === 0) return filled;
  const body: Pick<RunCreate, "sweep" | "sweep_stop" | "precondition"> = { ...filled, sweep: [{ option: choice.option, values }] };
  const stopMs = Number(choice.stopMs);
  if (stopMs > 0) body.sweep_stop = { figure: choice.stopFigure, above_ns: Math.round(stopMs * 1e6) };
  return body;
}

/** Sweep the run over one option: from a preset or typed, with an optional latency bound. */
export function SweepFields(props: {
  presets: SweepPreset[];
  choice: SweepChoice;
  onChange: (choice: SweepChoice) => void;
  errors: Record<string, string[]>;
}) {
  const { presets, choice, errors } = props;
  const set = (patch: Partial<SweepChoice>) => props.onChange({ ...choice, ...patch });
  function choosePreset(presetId: string) {
    const preset = presets.find((candidate) => candidate.id === presetId);
    if (!preset) return set({ presetId: "" });
    set({ presetId, option: preset.sweep[0]?.option ?? "iodepth", values: presetValues(preset), precondition: preset.precondition ?? false });
  }
  const chosen = presets.find((candidate) => candidate.id === choice.presetId);
  return (
    <fieldset className="form-grid">
      <legend>Sweep</legend>
      <FormField label="Sweep preset" optional hint={chosen ? `${chosen.description} Its job runs unless a plan or preset is chosen.` : "Run the jobs at every value of one option, one point after the other."}>
        {(c) => (
          <select {...c} name="sweep_preset" value={choice.presetId} onChange={(e) => choosePreset(e.target.value)}>
            <option value="">No preset</option>
            {presets.map((preset) => (
              <option key={preset.id} value={preset.id}>
                {preset.name}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField label="Swept option" errors={errors["sweep.0.option"]}>
        {(c) => (
          <select {...c} name="sweep_option" value={choice.option} onChange={(e) => set({ option: e.target.value })}>
            {SWEEP_OPTIONS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField label="Sweep values" optional errors={[...(errors.sweep ?? []), ...(errors["sweep.0.values"] ?? [])]} hint="e.g. 1, 2, 4, 8, 16, 32 (bs in bytes); empty: no sweep">
        {(c) => <input {...c} name="sweep_values" value={choice.values} onChange={(e) => set({ values: e.target.value })} />}
      </FormField>
      <FormField label="Stop when latency exceeds (ms)" optional errors={errors["sweep_stop.above_ns"]} hint="held for 3 s in a row; the points measured before are kept">
        {(c) => <input {...c} name="sweep_stop" type="number" min={0} step="any" value={choice.stopMs} onChange={(e) => set({ stopMs: e.target.value })} />}
      </FormField>
      <FormField label="Latency bound on">
        {(c) => (
          <select {...c} name="sweep_stop_figure" value={choice.stopFigure} onChange={(e) => set({ stopFigure: e.target.value as SweepChoice["stopFigure"] })}>
            <option value="lat_mean_ns">mean latency, each second</option>
            <option value="clat_p99_ns">p99 latency of the point so far</option>
          </select>
        )}
      </FormField>
      <label className="checkbox">
        <input type="checkbox" name="precondition" checked={choice.precondition} onChange={(e) => set({ precondition: e.target.checked })} />{" "}
        Precondition first: fill the working set sequentially, twice over, before measuring (writes; not counted in the results)
      </label>
    </fieldset>
  );
}
