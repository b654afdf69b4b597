import { FormField } from "../../../components/ui/form-field";
import type { Preset } from "../../../lib/api/types";
import { describeJob } from "../../../lib/fio";
import { ExpectedFigures } from "./expected-figures";
import { groupPresets } from "./group-presets";

interface PresetPickerProps {
  presets: Preset[];
  selectedId: string | null;
  onSelect: (preset: Preset | null) => void;
}

/** A preset select grouped by source, with what the chosen one measures and its expected figures. */
export function PresetPicker({ presets, selectedId, onSelect }: PresetPickerProps) {
  const selected = presets.find((preset) => preset.id === selectedId) ?? null;
  return (
    <div className="preset-picker">
      <FormField label="Preset">
        {(control) => (
          <select
            {...control}
            value={selectedId ?? ""}
            onChange={(event) => onSelect(presets.find((preset) => preset.id === event.target.value) ?? null)}
          >
            <option value="">No preset</option>
            {groupPresets(presets).map(([source, group]) => (
              <optgroup key={source} label={source}>
                {group.map((preset) => (
                  <option key={preset.id} value={preset.id}>
                    {preset.name} ({preset.measures}, {preset.platform})
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        )}
      </FormField>
      {selected ? (
        <div className="preset-details" aria-live="polite">
          <p>
            <span className="tag">measures {selected.measures}</span> <span className="tag">{selected.platform}</span>{" "}
            <span className="muted small">source: {selected.source}</span>
          </p>
          <p className="small">{selected.description}</p>
          <ul className="small mono preset-jobs">
            {selected.jobs.map((job, index) => (
              <li key={index}>
                [{job.name}] {describeJob(job)}
              </li>
            ))}
          </ul>
          <ExpectedFigures figures={selected.expected} caption="Publisher's expected figures" />
        </div>
      ) : null}
    </div>
  );
}
