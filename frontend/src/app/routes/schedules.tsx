import { PageHeader } from "../../components/ui/page-header";
import { QueryState } from "../../components/ui/query-state";
import { ViewerNote } from "../../components/ui/viewer-note";
import { useRole } from "../../features/auth/api/get-session";
import { usePlans } from "../../features/plans/api/list-plans";
import { useSchedules } from "../../features/schedules/api/list-schedules";
import { NewScheduleForm } from "../../features/schedules/components/new-schedule-form";
import { SchedulesTable } from "../../features/schedules/components/schedules-table";
import { useTargets } from "../../features/targets/api/list-targets";
import { canWrite } from "../../lib/roles";
import { usePageTitle } from "../../lib/use-page-title";

export function SchedulesRoute() {
  usePageTitle("Schedules");
  const writer = canWrite(useRole());
  const schedules = useSchedules();
  const plans = usePlans();
  const targets = useTargets();
  const items = schedules.data?.items ?? [];
  return (
    <>
      <PageHeader title="Schedules" />
      <div className="layout-main-side">
        <section aria-labelledby="schedule-list-heading">
          <h2 id="schedule-list-heading">Recurring runs</h2>
          <p className="small muted">
            Each slot fires once, whatever the number of storbench processes; a slot missed while storbench was down, or
            whose run was refused, is listed with the reason.
          </p>
          <QueryState
            isPending={schedules.isPending}
            error={schedules.error}
            label="schedules"
            isEmpty={items.length === 0}
          >
            <SchedulesTable schedules={items} canEdit={writer} />
          </QueryState>
        </section>
        {writer ? <NewScheduleForm plans={plans.data?.items ?? []} targets={targets.data?.items ?? []} /> : <ViewerNote action="create schedules" />}
      </div>
    </>
  );
}
