import { ApiErrorAlert } from "../../components/ui/api-error-alert";
import { useHosts } from "../../features/hosts/api/list-hosts";
import { usePlans } from "../../features/plans/api/list-plans";
import { usePresets } from "../../features/plans/api/list-presets";
import { StartRunForm, type InitialRunChoices } from "../../features/runs/components/start-run-form";
import { useTargets } from "../../features/targets/api/list-targets";

/** The start-run form fed with targets, hosts, plans and presets from their features. */
export function StartRunPanel({ headingLevel, initial }: { headingLevel?: 2 | 3; initial?: InitialRunChoices }) {
  const targets = useTargets();
  const hosts = useHosts();
  const plans = usePlans();
  const presets = usePresets();
  const error = targets.error ?? plans.error ?? presets.error;
  return (
    <>
      {error ? <ApiErrorAlert error={error} title="Could not load run options" /> : null}
      <StartRunForm
        targets={targets.data?.items ?? []}
        hosts={hosts.data?.items ?? []}
        plans={plans.data?.items ?? []}
        presets={presets.data?.items ?? []}
        headingLevel={headingLevel}
        initial={initial}
        // Chosen again (another quick start): the form opens afresh with the new choices.
        key={initial ? `${initial.targetId ?? ""}|${initial.planChoice ?? ""}` : undefined}
      />
    </>
  );
}
