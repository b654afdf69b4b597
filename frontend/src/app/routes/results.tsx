import { useCallback, useState } from "react";
import { useSearchParams } from "react-router";
import { PageHeader } from "../../components/ui/page-header";
import { QueryState } from "../../components/ui/query-state";
import { ViewerNote } from "../../components/ui/viewer-note";
import { useRole } from "../../features/auth/api/get-session";
import { GroupView } from "../../features/compare/components/group-view";
import { useResults } from "../../features/results/api/list-results";
import { ImportResultsForm } from "../../features/results/components/import-results-form";
import { ResultsFilters, type ResultFilterValues } from "../../features/results/components/results-filters";
import { ResultsPager } from "../../features/results/components/results-pager";
import { ResultsSelectionBar } from "../../features/results/components/results-selection-bar";
import { ResultsTable } from "../../features/results/components/results-table";
import { useResultSelection } from "../../features/results/hooks/use-result-selection";
import { useTargets } from "../../features/targets/api/list-targets";
import { canWrite, isOwner } from "../../lib/roles";
import { usePageTitle } from "../../lib/use-page-title";
import { RESULTS_CHART_LIMIT, RESULTS_PAGE_SIZE, readResultFilters, resultsQuery } from "../page-params";

const PARAM_OF: Record<keyof ResultFilterValues, string> = {
  storageClass: "storage_class",
  targetId: "target_id",
  origin: "origin",
};

/**
 * Keyset pages, walked from the newest: the cursor lives in the address, the cursors of the pages
 * before this one in a trail. A page opened from a link is not anchored: where it stands among the
 * pages stays unknown (null).
 */
function useCursorPages(params: URLSearchParams, setParams: ReturnType<typeof useSearchParams>[1]) {
  const cursor = params.get("cursor") ?? "";
  const [trail, setTrail] = useState({ before: [] as string[], at: "", anchored: true });
  const pageIndex = cursor === "" ? 0 : trail.at === cursor && trail.anchored ? trail.before.length : null;

  function goTo(nextCursor: string, before: string[], anchored = true) {
    setTrail({ before, at: nextCursor, anchored });
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (nextCursor) next.set("cursor", nextCursor);
      else next.delete("cursor");
      return next;
    });
  }
  return {
    cursor,
    pageIndex,
    newest: () => goTo("", []),
    newer: () => goTo(trail.before.at(-1) ?? "", trail.before.slice(0, -1)),
    older: (nextCursor: string | null | undefined) => {
      if (nextCursor) goTo(nextCursor, [...trail.before, cursor], pageIndex !== null);
    },
  };
}

/** The team's result history (filters and page in the URL), its comparison chart, and imports. */
export function ResultsRoute() {
  usePageTitle("Results");
  const role = useRole();
  const selection = useResultSelection();
  const [params, setParams] = useSearchParams();
  const filters = readResultFilters(params);
  const pages = useCursorPages(params, setParams);
  const query = resultsQuery(filters);
  const results = useResults({ ...query, limit: RESULTS_PAGE_SIZE, cursor: pages.cursor || undefined });
  const chartResults = useResults({ ...query, limit: RESULTS_CHART_LIMIT });
  const targets = useTargets();
  const targetItems = targets.data?.items ?? [];
  const storageClasses = [
    ...new Set(
      [...targetItems, ...(chartResults.data?.items ?? [])].flatMap((item) => (item.storage_class ? [item.storage_class] : [])),
    ),
  ].sort();

  const updateFilters = useCallback(
    (patch: Partial<ResultFilterValues>) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(patch) as [keyof ResultFilterValues, string][]) {
          if (value) next.set(PARAM_OF[key], value);
          else next.delete(PARAM_OF[key]);
        }
        next.delete("cursor");
        return next;
      }),
    [setParams],
  );

  return (
    <>
      <PageHeader title="Results" />
      {/* The history takes the page's whole width (its figures fit on one line at 1280 px); the
          comparison chart and the import form share the row below it. */}
      <section aria-labelledby="history-heading">
        <h2 id="history-heading">History</h2>
        <ResultsFilters
          values={filters}
          targets={targetItems}
          storageClasses={storageClasses}
          onChange={updateFilters}
        />
        <QueryState isPending={results.isPending} error={results.error} label="results">
          <ResultsSelectionBar selected={selection.ids} canRelabel={canWrite(role)} onClear={selection.clear} />
          <ResultsTable
            results={results.data?.items ?? []}
            targets={targetItems}
            controls={{
              selected: selection.selected,
              onToggle: selection.toggle,
              canRelabel: canWrite(role),
              canDelete: isOwner(role),
            }}
          />
          <ResultsPager
            pageIndex={pages.pageIndex}
            pageSize={RESULTS_PAGE_SIZE}
            shown={results.data?.items.length ?? 0}
            total={results.data?.total ?? 0}
            totalIsEstimate={results.data?.total_is_estimate ?? false}
            hasOlder={Boolean(results.data?.next_cursor)}
            onNewest={pages.newest}
            onNewer={pages.newer}
            onOlder={() => pages.older(results.data?.next_cursor)}
          />
        </QueryState>
      </section>
      <div className="layout-main-side">
        <section aria-labelledby="compare-heading">
          <h2 id="compare-heading">Compare</h2>
          <GroupView filters={query} defaultBy="label" title="Comparison" />
        </section>
        {canWrite(role) ? <ImportResultsForm targets={targetItems} /> : <ViewerNote action="import results" />}
      </div>
    </>
  );
}
