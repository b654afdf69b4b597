import { StatusBadge } from "../../../components/ui/status-badge";
import type { Assignment } from "../../../lib/api/types";
import { formatDateTime, formatWorkerCpu } from "../../../lib/format";

/** Each host's share of a multi-host run: its status, when fio started there, what went wrong. */
export function RunHostsTable({ assignments }: { assignments: Assignment[] }) {
  return (
    <div className="table-scroll">
      <table className="table table-compact">
        <caption className="sr-only">Hosts</caption>
        <thead>
          <tr>
            <th scope="col">Host</th>
            <th scope="col">Status</th>
            <th scope="col">Ready</th>
            <th scope="col">fio started</th>
            <th scope="col">Finished</th>
            <th scope="col">Worker CPU</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {assignments.map((assignment) => (
            <tr key={assignment.host.id}>
              <th scope="row">{assignment.host.name}</th>
              <td>
                <StatusBadge status={assignment.status} />
              </td>
              <td className="nowrap">{formatDateTime(assignment.ready_at)}</td>
              <td className="nowrap">
                {assignment.fio_started_at ? (
                  <time dateTime={assignment.fio_started_at}>{formatFioStart(assignment.fio_started_at)}</time>
                ) : (
                  "—"
                )}
              </td>
              <td className="nowrap">{formatDateTime(assignment.finished_at)}</td>
              <td className="num">{formatWorkerCpu(assignment.worker_cpu_percent)}</td>
              <td className="run-host-error">{assignment.error ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Start times differ by milliseconds: show them. */
function formatFioStart(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "—";
  return `${formatDateTime(iso)}.${String(date.getMilliseconds()).padStart(3, "0")}`;
}
