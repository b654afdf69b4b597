import { useSearchParams } from "react-router";
import { FilterSelect } from "../../components/ui/filter-select";
import { PageHeader } from "../../components/ui/page-header";
import { Pager } from "../../components/ui/pager";
import { QueryState } from "../../components/ui/query-state";
import { useRole } from "../../features/auth/api/get-session";
import { useRegressions } from "../../features/history/api/list-regressions";
import { ChangePointTable } from "../../features/history/components/change-point-table";
import { useTargets } from "../../features/targets/api/list-targets";
import { canWrite } from "../../lib/roles";
import { usePageTitle } from "../../lib/use-page-title";
import { REGRESSIONS_PAGE_SIZE, regressionsQuery } from "../page-params";

const STATES = ["unacknowledged", "acknowledged"] as const;
const KINDS = ["regression", "improvement"] as const;

/** Changes found in the team's history, to review and acknowledge (filters in the URL). */
export function RegressionsRoute() {
  usePageTitle("Regressions");
  const role = useRole();
  const [params, setParams] = useSearchParams();
  const state = params.get("state") ?? "";
  const kind = params.get("kind") ?? "";
  const query = regressionsQuery(params);
  const offset = query.offset ?? 0;
  const changes = useRegressions(query);
  const targets = useTargets();
  const targetNames = new Map((targets.data?.items ?? []).map((t) => [t.id, t.name]));
  const unacknowledged = changes.data?.unacknowledged_regressions ?? 0;

  function set(key: string, value: string) {
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(key, value);
      else next.delete(key);
      if (key !== "offset") next.delete("offset");
      return next;
    });
  }

  return (
    <>
      <PageHeader title="Regressions" />
      <p role="status" aria-live="polite">
        {changes.data
          ? unacknowledged
            ? `${unacknowledged} regression${unacknowledged === 1 ? "" : "s"} not yet acknowledged.`
            : "Every regression has been acknowledged."
          : null}
      </p>
      <div className="filters">
        <FilterSelect label="State" value={state} options={STATES} onChange={(v) => set("state", v)} />
        <FilterSelect label="Kind" value={kind} options={KINDS} onChange={(v) => set("kind", v)} />
      </div>
      <QueryState
        isPending={changes.isPending}
        error={changes.error}
        label="changes"
        isEmpty={(changes.data?.items.length ?? 0) === 0}
      >
        <ChangePointTable changes={changes.data?.items ?? []} targetNames={targetNames} canAcknowledge={canWrite(role)} />
        <Pager
          label="Change pages"
          offset={offset}
          pageSize={REGRESSIONS_PAGE_SIZE}
          total={changes.data?.total ?? 0}
          onOffsetChange={(o) => set("offset", o > 0 ? String(o) : "")}
        />
      </QueryState>
    </>
  );
}
