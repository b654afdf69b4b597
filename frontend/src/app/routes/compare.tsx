import { useEffect, useId, useMemo, useState, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import { PageHeader } from "../../components/ui/page-header";
import { QueryState } from "../../components/ui/query-state";
import { useRole } from "../../features/auth/api/get-session";
import { useComparison, type Comparison } from "../../features/compare/api/get-comparison";
import { usePreviousComparison } from "../../features/compare/api/get-previous-comparison";
import { useSavedView } from "../../features/compare/api/get-saved-view";
import { BaselineSelect, CompareActions } from "../../features/compare/components/compare-actions";
import { PoolToggle } from "../../features/compare/components/pool-toggle";
import { ComparisonTable } from "../../features/compare/components/comparison-table";
import { FingerprintDifferences } from "../../features/compare/components/fingerprint-differences";
import { GroupView } from "../../features/compare/components/group-view";
import { VerdictList } from "../../features/compare/components/verdict-list";
import { canWrite } from "../../lib/roles";
import { usePageTitle } from "../../lib/use-page-title";
import { GROUP_DEFAULTS, type GroupBy } from "../../features/compare/api/get-groups";
import { comparisonOf, groupsFilter, readIdParam, readIds } from "../page-params";

function ChooseResults({ onChoose }: { onChoose: (ids: number[]) => void }) {
  const [text, setText] = useState("");
  const id = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    const ids = readIds(text);
    if (ids.length) onChoose(ids);
  }
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Choose results</h2>
      <p>Select rows on the Results page and choose Compare, or give result ids here.</p>
      <form className="field-inline" onSubmit={submit}>
        <label htmlFor={id}>Result ids</label>
        <input id={id} value={text} placeholder="12, 15, 19" onChange={(event) => setText(event.target.value)} />
        <button type="submit" className="button">
          Compare
        </button>
      </form>
    </section>
  );
}

/**
 * The addresses that stand for a comparison: "compare with the previous run"
 * (/compare?previous_run=<run id>) opens as that comparison's permalink; a saved comparison
 * (/compare?view=<id>) as its ids and baseline (the view id stays in the address).
 */
function useComparisonAddress(params: URLSearchParams, setParams: ReturnType<typeof useSearchParams>[1]) {
  const viewId = readIdParam(params, "view");
  const view = useSavedView(viewId);
  const previousRun = params.get("ids") ? null : readIdParam(params, "previous_run");
  const previous = usePreviousComparison(previousRun);
  const previousLink = previous.data?.permalink;
  useEffect(() => {
    if (previousLink) setParams(new URLSearchParams(previousLink.split("?")[1] ?? ""), { replace: true });
  }, [previousLink, setParams]);

  const saved = view.data;
  useEffect(() => {
    if (saved?.kind === "compare" && !params.get("ids")) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set("ids", saved.query.ids ?? "");
          if (saved.query.baseline) next.set("baseline", saved.query.baseline);
          return next;
        },
        { replace: true },
      );
    }
  }, [saved, params, setParams]);
  return { viewId, view, previousRun, previous };
}

/** The comparison itself: baseline and actions, what differs, the figures side by side, the verdicts. */
function ComparisonSections(props: {
  comparison: Comparison;
  canSave: boolean;
  onBaselineChange: (id: number) => void;
  onPoolChange: (pool: Comparison["pooling"]) => void;
}) {
  const { comparison } = props;
  return (
    <>
      <div className="compare-toolbar">
        <BaselineSelect comparison={comparison} onChange={props.onBaselineChange} />
        <PoolToggle value={comparison.pooling} onChange={props.onPoolChange} />
        <CompareActions comparison={comparison} canSave={props.canSave} />
      </div>
      <section aria-labelledby="differences-heading">
        <h2 id="differences-heading">What differs</h2>
        <FingerprintDifferences differences={comparison.differences} sides={comparison.sides} />
      </section>
      <section aria-labelledby="figures-heading">
        <h2 id="figures-heading">Side by side</h2>
        <ComparisonTable comparison={comparison} />
      </section>
      <section aria-labelledby="verdicts-heading">
        <h2 id="verdicts-heading">Is it real?</h2>
        <VerdictList comparison={comparison} />
      </section>
    </>
  );
}

/** A saved grouped view: its filters, grouped by what it was saved with. */
function SavedGroups({ query }: { query: Record<string, string | undefined> }) {
  return (
    <section aria-labelledby="groups-heading">
      <h2 id="groups-heading">Grouped</h2>
      <GroupView
        filters={Object.fromEntries(Object.entries(query).filter(([key]) => !["by", "figure", "direction"].includes(key)))}
        defaultBy={(query.by as GroupBy | undefined) ?? GROUP_DEFAULTS.by}
      />
    </section>
  );
}

/** Results side by side (/compare?ids=…&baseline=…, a saved view /compare?view=…, or /compare?previous_run=…). */
export function CompareRoute() {
  usePageTitle("Compare");
  const role = useRole();
  const [params, setParams] = useSearchParams();
  const { viewId, view, previousRun, previous } = useComparisonAddress(params, setParams);
  const { ids, baseline, pool } = comparisonOf(params);
  const comparison = useComparison({ ids, baseline, pool });
  const idsKey = ids.join(",");
  // The same object while the ids stay: the grouped view (memo) is not redrawn on every render here.
  const groupFilters = useMemo(() => groupsFilter(idsKey ? idsKey.split(",").map(Number) : []), [idsKey]);

  function show(nextIds: number[], nextBaseline?: number) {
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set("ids", nextIds.join(","));
      if (nextBaseline) next.set("baseline", String(nextBaseline));
      else next.delete("baseline");
      return next;
    });
  }

  function choosePool(nextPool: Comparison["pooling"]) {
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (nextPool === "run") next.set("pool", "run");
      else next.delete("pool");
      return next;
    });
  }

  const saved = view.data;
  const savedGroups = saved?.kind === "groups" ? saved.query : null;
  return (
    <>
      <PageHeader title={saved ? `Compare: ${saved.name}` : "Compare"} />
      {viewId !== null ? <QueryState isPending={view.isPending} error={view.error} label="the saved view">{null}</QueryState> : null}
      {previousRun !== null ? (
        <QueryState isPending={previous.isPending} error={previous.error} label="the previous run's comparison">
          {null}
        </QueryState>
      ) : null}
      {savedGroups ? (
        <SavedGroups query={savedGroups} />
      ) : ids.length === 0 ? (
        viewId === null && previousRun === null ? <ChooseResults onChoose={(chosen) => show(chosen)} /> : null
      ) : (
        <QueryState isPending={comparison.isPending} error={comparison.error} label="the comparison">
          {comparison.data ? (
            <ComparisonSections
              comparison={comparison.data}
              canSave={canWrite(role)}
              onBaselineChange={(id) => show(ids, id)}
              onPoolChange={choosePool}
            />
          ) : null}
        </QueryState>
      )}
      {ids.length > 0 && !savedGroups ? (
        // Asked for at once with the comparison, not after it; its chart is drawn once the
        // comparison is on screen (the comparison is what the page is for, the chart the costliest).
        <section aria-labelledby="groups-heading">
          <h2 id="groups-heading">Grouped</h2>
          <GroupView filters={groupFilters} drawChart={comparison.data !== undefined || comparison.error !== null} />
        </section>
      ) : null}
    </>
  );
}
