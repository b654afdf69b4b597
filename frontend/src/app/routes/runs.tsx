import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { FilterSelect } from "../../components/ui/filter-select";
import { PageHeader } from "../../components/ui/page-header";
import { ViewerNote } from "../../components/ui/viewer-note";
import { useRole } from "../../features/auth/api/get-session";
import { QueryState } from "../../components/ui/query-state";
import { useRuns } from "../../features/runs/api/list-runs";
import { RunsTable } from "../../features/runs/components/runs-table";
import { canWrite } from "../../lib/roles";
import { RUN_STATUSES } from "../../lib/status";
import { RUNS_PAGE_SIZE, runsListParams } from "../page-params";
import { StartRunPanel } from "./start-run-panel";
import { Pager } from "../../components/ui/pager";
import { FormField } from "../../components/ui/form-field";
import { useDebounced } from "../../lib/use-debounced";
import { usePageTitle } from "../../lib/use-page-title";

export function RunsRoute() {
  usePageTitle("Runs");
  const role = useRole();
  const [params, setParams] = useSearchParams();
  const query = runsListParams(params);
  const { status, label, offset = 0 } = query;
  const runs = useRuns(query);
  const total = runs.data?.total ?? 0;

  function update(next: { status?: string; offset?: number; label?: string }) {
    const merged = new URLSearchParams(params);
    if (next.label !== undefined) {
      if (next.label) merged.set("label", next.label);
      else merged.delete("label");
      merged.delete("offset");
    }
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
          <LabelFilter value={label ?? ""} onChange={(value) => update({ label: value })} />
        </div>
        <QueryState isPending={runs.isPending} error={runs.error} label="runs">
          <RunsTable runs={runs.data?.items ?? []} canStart={canWrite(role)} />
          <Pager
            label="Run pages"
            offset={offset}
            pageSize={RUNS_PAGE_SIZE}
            total={total}
            onOffsetChange={(o) => update({ offset: o })}
          />
        </QueryState>
      </section>
    </>
  );
}

/** Runs whose label or note contains the text (kept in the address, so it can be shared). */
function LabelFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const [text, setText] = useState(value);
  const settled = useDebounced(text, 300);
  useEffect(() => {
    if (settled.trim() !== value) onChange(settled.trim());
    // Only a settled change of the text filters; the address changing alone does not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);
  return (
    <FormField label="Label filter" className="field-inline">
      {(control) => (
        <input
          {...control}
          type="search"
          value={text}
          placeholder="e.g. nconnect"
          onChange={(event) => setText(event.target.value)}
        />
      )}
    </FormField>
  );
}
