import { PageHeader } from "../../components/ui/page-header";
import { QueryState } from "../../components/ui/query-state";
import { useMe } from "../../features/auth/api/get-me";
import { useHosts } from "../../features/hosts/api/list-hosts";
import { useTargets } from "../../features/targets/api/list-targets";
import { NewTargetForm } from "../../features/targets/components/new-target-form";
import { TargetsTable } from "../../features/targets/components/targets-table";
import { ShownOf } from "./shown-of";

export function TargetsRoute() {
  const targets = useTargets();
  const hosts = useHosts();
  const me = useMe();
  return (
    <>
      <PageHeader title="Targets" />
      <div className="layout-main-side">
        <section aria-label="Target list">
          <QueryState isPending={targets.isPending} error={targets.error} label="targets">
            <TargetsTable targets={targets.data?.items ?? []} canManageDestructive={me.data?.role === "owner"} />
            <ShownOf page={targets.data} noun="targets" />
          </QueryState>
        </section>
        <NewTargetForm hosts={hosts.data?.items ?? []} />
      </div>
    </>
  );
}
