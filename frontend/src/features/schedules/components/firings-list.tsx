import { Link } from "react-router";
import { QueryState } from "../../../components/ui/query-state";
import { formatDateTime } from "../../../lib/format";
import { useFirings } from "../api/list-firings";
import { FiringBadge } from "./firing-badge";

/** Every slot of a schedule: its run, or why it was missed or refused. */
export function FiringsList({ scheduleId, name }: { scheduleId: number; name: string }) {
  const firings = useFirings(scheduleId);
  const items = firings.data?.items ?? [];
  return (
    <QueryState
      isPending={firings.isPending}
      error={firings.error}
      label="firings"
      isEmpty={items.length === 0}
      empty={<p className="muted small">No slot has come yet.</p>}
    >
      <table className="table table-compact">
        <caption className="sr-only">Firings of {name}</caption>
        <thead>
          <tr>
            <th scope="col">Slot</th>
            <th scope="col">Status</th>
            <th scope="col">Run or reason</th>
          </tr>
        </thead>
        <tbody>
          {items.map((firing) => (
            <tr key={firing.id}>
              <td>
                <time dateTime={firing.slot_at}>{formatDateTime(firing.slot_at)}</time>
              </td>
              <td>
                <FiringBadge status={firing.status} />
                {firing.missed_count > 1 ? <span className="small muted"> ×{firing.missed_count}</span> : null}
              </td>
              <td>
                {firing.run_id !== null ? <Link to={`/runs/${firing.run_id}`}>Run #{firing.run_id}</Link> : null}
                {firing.reason ? <span className="small"> {firing.reason}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </QueryState>
  );
}
