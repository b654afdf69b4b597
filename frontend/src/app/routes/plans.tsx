import { PageHeader } from "../../components/ui/page-header";
import { QueryState } from "../../components/ui/query-state";
import { ViewerNote } from "../../components/ui/viewer-note";
import { useRole } from "../../features/auth/api/get-session";
import { usePlans } from "../../features/plans/api/list-plans";
import { usePresets } from "../../features/plans/api/list-presets";
import { NewPlanForm } from "../../features/plans/components/new-plan-form";
import { PlansTable } from "../../features/plans/components/plans-table";
import { PresetsTable } from "../../features/plans/components/presets-table";
import { useTargets } from "../../features/targets/api/list-targets";
import { canWrite } from "../../lib/roles";
import { ShownOf } from "./shown-of";
import { usePageTitle } from "../../lib/use-page-title";

export function PlansRoute() {
  usePageTitle("Plans");
  const role = useRole();
  const plans = usePlans();
  const presets = usePresets();
  const targets = useTargets();
  return (
    <>
      <PageHeader title="Plans" />
      <section aria-labelledby="saved-plans-heading">
        <h2 id="saved-plans-heading">Saved plans</h2>
        <QueryState isPending={plans.isPending} error={plans.error} label="plans">
          <PlansTable plans={plans.data?.items ?? []} targets={targets.data?.items ?? []} canEdit={canWrite(role)} />
          <ShownOf page={plans.data} noun="plans" />
        </QueryState>
      </section>
      {canWrite(role) ? <NewPlanForm presets={presets.data?.items ?? []} /> : <ViewerNote action="save plans" />}
      <section aria-labelledby="presets-heading">
        <h2 id="presets-heading">Presets</h2>
        <QueryState isPending={presets.isPending} error={presets.error} label="presets">
          <PresetsTable presets={presets.data?.items ?? []} />
        </QueryState>
      </section>
    </>
  );
}
