import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import { fieldErrors } from "../../../lib/api-client";
import type { Plan, Preset, RunCreate, Target } from "../../../lib/api-types";
import { describeJob, presetJobs } from "../../../lib/fio";
import { useCreateRun } from "../api/create-run";

export type TargetOption = Pick<Target, "id" | "name" | "host_name" | "path">;

interface StartRunFormProps {
  targets: TargetOption[];
  plans: Plan[];
  presets: Preset[];
  headingLevel?: 2 | 3;
}

/** Picks a target and a saved plan or preset, starts the run and opens it. */
export function StartRunForm({ targets, plans, presets, headingLevel = 2 }: StartRunFormProps) {
  const [targetId, setTargetId] = useState("");
  const [planChoice, setPlanChoice] = useState("");
  const [missing, setMissing] = useState<{ target?: string; plan?: string }>({});
  const navigate = useNavigate();
  const createMutation = useCreateRun();
  const serverErrors = fieldErrors(createMutation.error, ["target_id", "plan_id"]);
  const Heading = headingLevel === 2 ? "h2" : "h3";

  const [choiceKind, choiceId] = planChoice.split(":", 2) as [string, string | undefined];
  const chosenPlan = choiceKind === "plan" ? plans.find((plan) => String(plan.id) === choiceId) : undefined;
  const chosenPreset = choiceKind === "preset" ? presets.find((preset) => preset.id === choiceId) : undefined;
  const chosenJobs = chosenPlan?.jobs ?? (chosenPreset ? presetJobs(chosenPreset) : []);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = {
      target: targetId ? undefined : "Choose a target.",
      plan: chosenPlan || chosenPreset ? undefined : "Choose a plan or preset.",
    };
    setMissing(problems);
    if (problems.target || problems.plan) return;
    const body: RunCreate = chosenPlan
      ? { target_id: Number(targetId), plan_id: chosenPlan.id }
      : { target_id: Number(targetId), jobs: chosenJobs };
    createMutation.mutate(body, { onSuccess: (run) => navigate(`/runs/${run.id}`) });
  }

  return (
    <section className="panel" aria-labelledby="start-run-heading">
      <Heading id="start-run-heading">Start run</Heading>
      <form className="form" onSubmit={handleSubmit} aria-labelledby="start-run-heading">
        {createMutation.error ? (
          <ApiErrorAlert error={createMutation.error} inlineFields={["target_id", "plan_id"]} />
        ) : null}
        <div className="form-grid">
          <FormField label="Target" errors={[missing.target, ...(serverErrors.target_id ?? [])].filter(isText)}>
            {(c) => (
              <select {...c} name="target" value={targetId} onChange={(e) => setTargetId(e.target.value)}>
                <option value="">Choose a target…</option>
                {targets.map((target) => (
                  <option key={target.id} value={String(target.id)}>
                    {target.name} ({target.host_name}:{target.path})
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField label="Plan" errors={[missing.plan, ...(serverErrors.plan_id ?? [])].filter(isText)}>
            {(c) => (
              <select {...c} name="plan" value={planChoice} onChange={(e) => setPlanChoice(e.target.value)}>
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
                {presets.length ? (
                  <optgroup label="Presets">
                    {presets.map((preset) => (
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
        {chosenJobs.length ? (
          <ul className="plain-list small mono" aria-label="Jobs to run">
            {chosenJobs.map((job, index) => (
              <li key={index}>
                [{job.name}] {describeJob(job)}
              </li>
            ))}
          </ul>
        ) : null}
        {targets.length === 0 ? <p className="muted small">No targets yet: register one on the Targets page.</p> : null}
        <button type="submit" className="button button-primary" disabled={createMutation.isPending}>
          Start run
        </button>
      </form>
    </section>
  );
}

function isText(value: string | undefined): value is string {
  return typeof value === "string" && value !== "";
}
