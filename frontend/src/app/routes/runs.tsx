import { useSearchParams } from "react-router";
import { FilterSelect } from "../../components/ui/filter-select";
import { PageHeader } from "../../components/ui/page-header";
import { ViewerNote } from "../../components/ui/viewer-note";
import { useRole } from "../../features/auth/api/get-session";
import { QueryState } from "../../components/ui/query-state";
import { useRuns } from "../../features/runs/api/list-runs";
import { RunsTable } from "../../features/runs/components/runs-table";
import type { RunStatus } from "../../lib/api/types";
import { canWrite } from "../../lib/roles";
import { RUN_STATUSES } from "../../lib/status";
import { StartRunPanel } from "./start-run-panel";
import { Pager } from "../../components/ui/pager";
import { usePageTitle } from "../../lib/use-page-title";

const PAGE_SIZE = 50;

export function RunsRoute() {
  usePageTitle("Runs");
  const role = useRole();
  const [params, setParams] = useSearchParams();
  const statusParam = params.get("status");
  const status = RUN_STATUSES.includes(statusParam as RunStatus) ? (statusParam as RunStatus) : undefined;
  const offset = Math.max(0, Number(params.get("offset")) || 0);
  const runs = useRuns({ status, limit: PAGE_SIZE, offset });
  const total = runs.data?.total ?? 0;

  function update(next: { status?: string; offset?: number }) {
    const merged = new URLSearchParams(params);
    if (next.status !== undefined) {
      if (next.status) merged.set("status", next.status);
      else merged.delete("status");
      merged.delete("offset");
    }
    if (next.offset !== undefined) {
      if (next.offset > 0) merged.set("offset", String(next.offset));
      else merged.delete("offset");
    }
    setParams(merged);
  }

  return (
    <>
      <PageHeader title="Runs" />
      {canWrite(role) ? <StartRunPanel /> : <ViewerNote action="start runs" />}
      <section aria-labelledby="run-list-heading">
        <div className="section-header">
          <h2 id="run-list-heading">All runs</h2>
          <FilterSelect
            label="Status filter"
            value={status ?? ""}
            options={RUN_STATUSES}
            onChange={(value) => update({ status: value })}
          />
        </div>
        <QueryState isPending={runs.isPending} error={runs.error} label="runs">
          <RunsTable runs={runs.data?.items ?? []} />
          <Pager
            label="Run pages"
            offset={offset}
            pageSize={PAGE_SIZE}
            total={total}
            onOffsetChange={(o) => update({ offset: o })}
          />
        </QueryState>
      </section>
    </>
  );
}
