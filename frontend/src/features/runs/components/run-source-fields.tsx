import { FormField } from "../../../components/ui/form-field";
import type { Plan } from "../../../lib/api/types";
import { PLATFORM_NAMES, type ResolvedRun, type TargetOption } from "./run-choices";

interface RunSourceFieldsProps {
  targets: TargetOption[];
  plans: Plan[];
  run: ResolvedRun;
  targetId: string;
  onTargetChange: (targetId: string) => void;
  planChoice: string;
  onPlanChange: (planChoice: string) => void;
  errors: { target: string[]; plan: string[] };
}

/** Where the run goes and what it runs: a target, and a saved plan or a preset its platform runs. */
export function RunSourceFields(props: RunSourceFieldsProps) {
  const { targets, plans, run, errors } = props;
  return (
    <>
      <div className="form-grid">
        <FormField label="Target" errors={errors.target}>
          {(c) => (
            <select {...c} name="target" value={props.targetId} onChange={(e) => props.onTargetChange(e.target.value)}>
              <option value="">Choose a target…</option>
              {targets.map((target) => (
                <option key={target.id} value={String(target.id)}>
                  {target.name} ({target.host_name}:{target.path})
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Plan" errors={errors.plan}>
          {(c) => (
            <select {...c} name="plan" value={props.planChoice} onChange={(e) => props.onPlanChange(e.target.value)}>
              <option value="">Choose a plan or preset…</option>
              {plans.length ? (
                <optgroup label="Saved plans">
                  {plans.map((plan) => (
                    <option key={plan.id} value={`plan:${plan.id}`}>
                      {plan.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
              {run.offeredPresets.length ? (
                <optgroup label="Presets">
                  {run.offeredPresets.map((preset) => (
                    <option key={preset.id} value={`preset:${preset.id}`}>
                      {preset.name} ({preset.source})
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
          )}
        </FormField>
      </div>
      <HiddenPresetsNote run={run} />
    </>
  );
}

/** Why some presets are not offered: they are recipes for another platform than the target's host. */
function HiddenPresetsNote({ run }: { run: ResolvedRun }) {
  const { hiddenPresets: hidden, platform, target } = run;
  if (hidden === 0 || !platform || !target) return null;
  return (
    <p className="muted small">
      {hidden} {hidden === 1 ? "preset is" : "presets are"} not offered: {target.host_name} runs {PLATFORM_NAMES[platform]}{" "}
      and {hidden === 1 ? "it is a recipe" : "they are recipes"} for another platform.
    </p>
  );
}
