import { useCallback } from "react";
import { Link, useSearchParams } from "react-router";
import { PageHeader } from "../../components/ui/page-header";
import { QueryState } from "../../components/ui/query-state";
import { useTrend, type TrendParams } from "../../features/history/api/get-trend";
import { useSeries } from "../../features/history/api/list-series";
import { useRegressions } from "../../features/history/api/list-regressions";
import { useUnfiled } from "../../features/history/api/list-unfiled";
import { TrendChart } from "../../features/history/components/trend-chart";
import { isDirection, isFigure } from "../../features/history/components/trend-labels";
import { TrendPicker, type TrendSelection } from "../../features/history/components/trend-picker";
import { UnfiledImports } from "../../features/history/components/unfiled-imports";
import { useRole } from "../../features/auth/api/get-session";
import { useTargets } from "../../features/targets/api/list-targets";
import { canWrite } from "../../lib/roles";
import { usePageTitle } from "../../lib/use-page-title";

function readSelection(params: URLSearchParams): TrendSelection {
  const targetId = params.get("target_id") ?? "";
  const metric = params.get("metric");
  const direction = params.get("direction");
  return {
    targetId: /^\d+$/.test(targetId) ? targetId : "",
    job: params.get("job") ?? "",
    metric: isFigure(metric) ? metric : "iops",
    direction: isDirection(direction) ? direction : "read",
  };
}

const PARAM_OF: Record<keyof TrendSelection, string> = {
  targetId: "target_id",
  job: "job",
  metric: "metric",
  direction: "direction",
};

/** A figure of one job on one target over time, its spec line and the changes found (selection in the URL). */
export function HistoryRoute() {
  usePageTitle("History");
  const role = useRole();
  const [params, setParams] = useSearchParams();
  const selection = readSelection(params);
  const targets = useTargets();
  const targetId = selection.targetId ? Number(selection.targetId) : null;
  const series = useSeries(targetId);
  const query: TrendParams | null =
    targetId !== null && selection.job
      ? { target_id: targetId, job: selection.job, metric: selection.metric, direction: selection.direction }
      : null;
  const trend = useTrend(query);
  const unfiled = useUnfiled();
  const writer = canWrite(role);
  const waiting = useRegressions({ acknowledged: false, kind: "regression", limit: 1 });
  const unacknowledged = waiting.data?.unacknowledged_regressions ?? 0;

  const update = useCallback(
    (patch: Partial<TrendSelection>) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(patch) as [keyof TrendSelection, string][]) {
          if (value) next.set(PARAM_OF[key], value);
          else next.delete(PARAM_OF[key]);
        }
        return next;
      }),
    [setParams],
  );

  return (
    <>
      <PageHeader title="History">
        <Link to="/regressions">
          {unacknowledged ? `${unacknowledged} unacknowledged regression${unacknowledged === 1 ? "" : "s"}` : "Regressions"}
        </Link>
      </PageHeader>
      <TrendPicker value={selection} targets={targets.data?.items ?? []} series={series.data?.items ?? []} onChange={update} />
      {query === null ? (
        <p className="muted">Choose a target and one of its jobs to see how a figure developed over time.</p>
      ) : (
        <QueryState isPending={trend.isPending} error={trend.error} label="the trend">
          {trend.data ? <TrendChart trend={trend.data} canAcknowledge={writer} /> : null}
        </QueryState>
      )}
      <UnfiledImports groups={unfiled.data?.items ?? []} targets={targets.data?.items ?? []} canFile={writer} />
    </>
  );
}
