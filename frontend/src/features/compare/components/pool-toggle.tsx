import type { Schema } from "../../../lib/api/types";

type Pooling = Schema<"Pooling">;

const CHOICES: { value: Pooling; label: string; hint: string }[] = [
  { value: "measured", label: "What was measured", hint: "results of one plan, job, target and fingerprint make one side across runs" },
  { value: "run", label: "Run", hint: "each run is a side of its own" },
];

/** How results pool into sides: by what was measured (the default) or by run. */
export function PoolToggle({ value, onChange }: { value: Pooling; onChange: (value: Pooling) => void }) {
  return (
    <fieldset className="pool-toggle">
      <legend>Pool results by</legend>
      {CHOICES.map((choice) => (
        <label key={choice.value} title={choice.hint}>
          <input
            type="radio"
            name="pool"
            value={choice.value}
            checked={value === choice.value}
            onChange={() => onChange(choice.value)}
          />{" "}
          {choice.label}
        </label>
      ))}
    </fieldset>
  );
}
