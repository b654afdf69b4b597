import { PageHeader } from "../../components/ui/page-header";
import { QueryState } from "../../components/ui/query-state";
import { ViewerNote } from "../../components/ui/viewer-note";
import { useRole } from "../../features/auth/api/get-session";
import { useHosts } from "../../features/hosts/api/list-hosts";
import { AddHostForm } from "../../features/hosts/components/add-host-form";
import { AddHostGuide } from "../../features/hosts/components/add-host-guide";
import { EnrollmentTokens } from "../../features/hosts/components/enrollment-tokens";
import { HostsTable } from "../../features/hosts/components/hosts-table";
import { canWrite, isOwner } from "../../lib/roles";
import { ShownOf } from "./shown-of";
import { usePageTitle } from "../../lib/use-page-title";

export function HostsRoute() {
  usePageTitle("Hosts");
  const role = useRole();
  const hosts = useHosts();
  return (
    <>
      <PageHeader title="Hosts" />
      <div className="layout-main-side">
        <div>
          <section aria-label="Host list">
            <QueryState isPending={hosts.isPending} error={hosts.error} label="hosts">
              <HostsTable hosts={hosts.data?.items ?? []} canEdit={canWrite(role)} canManage={isOwner(role)} />
              <ShownOf page={hosts.data} noun="hosts" />
            </QueryState>
          </section>
          <AddHostGuide canEnroll={isOwner(role)} />
          {isOwner(role) ? <EnrollmentTokens /> : null}
        </div>
        {canWrite(role) ? <AddHostForm /> : <ViewerNote action="add hosts" />}
      </div>
    </>
  );
}
