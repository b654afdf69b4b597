import { Link, useSearchParams } from "react-router";
import { PageHeader } from "../../components/ui/page-header";
import { ViewerNote } from "../../components/ui/viewer-note";
import { AttentionPanel } from "../../features/attention/components/attention-panel";
import { useRole } from "../../features/auth/api/get-session";
import { QueryState } from "../../components/ui/query-state";
import { useHosts } from "../../features/hosts/api/list-hosts";
import { usePresets } from "../../features/plans/api/list-presets";
import { useRuns } from "../../features/runs/api/list-runs";
import type { InitialRunChoices } from "../../features/runs/components/start-run-form";
import { RunsTable } from "../../features/runs/components/runs-table";
import { useTargets } from "../../features/targets/api/list-targets";
import { canWrite } from "../../lib/roles";
import { QuickStartCard } from "./quick-start-card";
import { StartRunPanel } from "./start-run-panel";
import { usePageTitle } from "../../lib/use-page-title";

/** A quick start chosen in the address (?preset=…&target_id=…): the start-run form opens with it. */
function initialChoices(params: URLSearchParams): InitialRunChoices | undefined {
  const preset = params.get("preset");
  if (!preset) return undefined;
  const targetId = params.get("target_id");
  return { planChoice: `preset:${preset}`, targetId: targetId && /^\d+$/.test(targetId) ? targetId : "" };
}

export function DashboardRoute() {
  usePageTitle("Dashboard");
  const role = useRole();
  const [params] = useSearchParams();
  const hosts = useHosts();
  const targets = useTargets();
  const presets = usePresets();
  const runs = useRuns({ limit: 10 });
  const running = useRuns({ status: "running", limit: 1 });
  const queued = useRuns({ status: "queued", limit: 1 });
  const hostItems = hosts.data?.items ?? [];
  // Revoked and offline hosts take no work: only these are online.
  const online = hostItems.filter((host) => host.status === "online" || host.status === "busy").length;
  const firstVisit = runs.data?.total === 0 && targets.data !== undefined && canWrite(role);

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
      {firstVisit ? <QuickStartCard targets={targets.data?.items ?? []} presets={presets.data?.items ?? []} /> : null}
      <AttentionPanel />
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
        {canWrite(role) ? <StartRunPanel initial={initialChoices(params)} /> : <ViewerNote action="start runs" />}
      </div>
    </>
  );
}
