import { PageHeader } from "../../components/ui/page-header";
import { QueryState } from "../../components/ui/query-state";
import { ViewerNote } from "../../components/ui/viewer-note";
import { useRole } from "../../features/auth/api/get-session";
import { useHosts } from "../../features/hosts/api/list-hosts";
import { useTargets } from "../../features/targets/api/list-targets";
import { NewTargetForm } from "../../features/targets/components/new-target-form";
import { TargetsTable } from "../../features/targets/components/targets-table";
import { canWrite, isOwner } from "../../lib/roles";
import { ShownOf } from "./shown-of";
import { usePageTitle } from "../../lib/use-page-title";

export function TargetsRoute() {
  usePageTitle("Targets");
  const targets = useTargets();
  const hosts = useHosts();
  const role = useRole();
  return (
    <>
      <PageHeader title="Targets" />
      <div className="layout-main-side">
        <section aria-label="Target list">
          <QueryState isPending={targets.isPending} error={targets.error} label="targets">
            <TargetsTable targets={targets.data?.items ?? []} canManageDestructive={isOwner(role)} canEdit={canWrite(role)} />
            <ShownOf page={targets.data} noun="targets" />
          </QueryState>
        </section>
        {canWrite(role) ? <NewTargetForm hosts={hosts.data?.items ?? []} /> : <ViewerNote action="add targets" />}
      </div>
    </>
  );
}
