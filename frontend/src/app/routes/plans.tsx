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
      {/* The catalogue is for reading up on: folded, so the form above stays the page's business
          (the form's preset picker shows the chosen preset's description, source and figures). */}
      <section aria-labelledby="presets-heading">
        <details className="catalogue">
          <summary>
            <h2 id="presets-heading">Presets</h2>{" "}
            <span className="muted small">{presets.data ? `${presets.data.items.length} published recipes` : ""}</span>
          </summary>
          <QueryState isPending={presets.isPending} error={presets.error} label="presets">
            <div className="table-scroll">
              <PresetsTable presets={presets.data?.items ?? []} />
            </div>
          </QueryState>
        </details>
      </section>
    </>
  );
}
