import { PageHeader } from "../../components/ui/page-header";
import { QueryState } from "../../components/ui/query-state";
import { useHosts } from "../../features/hosts/api/list-hosts";
import { AddHostForm } from "../../features/hosts/components/add-host-form";
import { HostsTable } from "../../features/hosts/components/hosts-table";
import { ShownOf } from "./shown-of";

export function HostsRoute() {
  const hosts = useHosts();
  return (
    <>
      <PageHeader title="Hosts" />
      <div className="layout-main-side">
        <section aria-label="Host list">
          <QueryState isPending={hosts.isPending} error={hosts.error} label="hosts">
            <HostsTable hosts={hosts.data?.items ?? []} />
            <ShownOf page={hosts.data} noun="hosts" />
          </QueryState>
        </section>
        <AddHostForm />
      </div>
    </>
  );
}
