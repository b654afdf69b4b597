import { Link } from "react-router";
import { PageHeader } from "../../components/ui/page-header";
import { ViewerNote } from "../../components/ui/viewer-note";
import { useRole } from "../../features/auth/api/get-session";
import { QueryState } from "../../components/ui/query-state";
import { useHosts } from "../../features/hosts/api/list-hosts";
import { useRuns } from "../../features/runs/api/list-runs";
import { RunsTable } from "../../features/runs/components/runs-table";
import { useTargets } from "../../features/targets/api/list-targets";
import { canWrite } from "../../lib/roles";
import { StartRunPanel } from "./start-run-panel";
import { usePageTitle } from "../../lib/use-page-title";

export function DashboardRoute() {
  usePageTitle("Dashboard");
  const role = useRole();
  const hosts = useHosts();
  const targets = useTargets();
  const runs = useRuns({ limit: 10 });
  const running = useRuns({ status: "running", limit: 1 });
  const queued = useRuns({ status: "queued", limit: 1 });
  const hostItems = hosts.data?.items ?? [];
  const online = hostItems.filter((host) => host.status !== "offline").length;

  return (
    <>
      <PageHeader title="Dashboard" />
      <dl className="stats" aria-label="Overview">
        <div className="stat">
          <dt>Hosts online</dt>
          <dd>{hosts.data ? `${online} / ${hosts.data.total}` : "…"}</dd>
        </div>
        <div className="stat">
          <dt>Targets</dt>
          <dd>{targets.data ? targets.data.total : "…"}</dd>
        </div>
        <div className="stat">
          <dt>Runs in progress</dt>
          <dd>{running.data ? running.data.total : "…"}</dd>
        </div>
        <div className="stat">
          <dt>Runs waiting</dt>
          <dd>{queued.data ? queued.data.total : "…"}</dd>
        </div>
      </dl>
      <div className="layout-main-side">
        <section aria-labelledby="recent-runs-heading">
          <div className="section-header">
            <h2 id="recent-runs-heading">Recent runs</h2>
            <Link to="/runs">Run history</Link>
          </div>
          <QueryState isPending={runs.isPending} error={runs.error} label="runs">
            <RunsTable runs={runs.data?.items ?? []} caption="Recent runs" />
          </QueryState>
        </section>
        {canWrite(role) ? <StartRunPanel /> : <ViewerNote action="start runs" />}
      </div>
    </>
  );
}
