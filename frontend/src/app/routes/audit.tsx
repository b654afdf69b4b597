import { useSearchParams } from "react-router";
import { FilterSelect } from "../../components/ui/filter-select";
import { PageHeader } from "../../components/ui/page-header";
import { QueryState } from "../../components/ui/query-state";
import { useAuditEvents } from "../../features/audit/api/list-audit-events";
import { AUDIT_ACTIONS } from "../../features/audit/components/audit-actions";
import { AuditTable } from "../../features/audit/components/audit-table";
import { useRole } from "../../features/auth/api/get-session";
import { isOwner } from "../../lib/roles";
import { Pager } from "../../components/ui/pager";
import { usePageTitle } from "../../lib/use-page-title";
import { AUDIT_PAGE_SIZE, auditQuery } from "../page-params";


export function AuditRoute() {
  usePageTitle("Audit log");
  const owner = isOwner(useRole());
  return (
    <>
      <PageHeader title="Audit log" />
      {owner ? <AuditLog /> : <p className="muted">Only team owners can read the audit log.</p>}
    </>
  );
}

/** Who started, cancelled, created or changed what; action and page live in the URL. */
function AuditLog() {
  const [params, setParams] = useSearchParams();
  const action = params.get("action") ?? "";
  const query = auditQuery(params);
  const offset = query.offset ?? 0;
  const events = useAuditEvents(query);
  const total = events.data?.total ?? 0;
  const actions: string[] = [...AUDIT_ACTIONS];
  if (action && !actions.includes(action)) actions.push(action);

  function update(next: { action?: string; offset?: number }) {
    setParams((current) => {
      const merged = new URLSearchParams(current);
      if (next.action !== undefined) {
        if (next.action) merged.set("action", next.action);
        else merged.delete("action");
        merged.delete("offset");
      }
      if (next.offset !== undefined) {
        if (next.offset > 0) merged.set("offset", String(next.offset));
        else merged.delete("offset");
      }
      return merged;
    });
  }

  return (
    <section aria-labelledby="audit-heading">
      <div className="section-header">
        <h2 id="audit-heading">Events, newest first</h2>
        <FilterSelect label="Action" value={action} options={actions} onChange={(value) => update({ action: value })} />
      </div>
      <QueryState isPending={events.isPending} error={events.error} label="the audit log">
        <AuditTable events={events.data?.items ?? []} />
        <Pager
          label="Audit log pages"
          offset={offset}
          pageSize={AUDIT_PAGE_SIZE}
          total={total}
          onOffsetChange={(o) => update({ offset: o })}
        />
      </QueryState>
    </section>
  );
}
