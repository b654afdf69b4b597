import { Link } from "react-router";
import { StatusBadge } from "../../../components/ui/status-badge";
import type { Run } from "../../../lib/api/types";
import { elapsedMs, formatDateTime, formatDuration, formatRelativeTime } from "../../../lib/format";
import { isRunActive } from "../../../lib/status";
import { useNow } from "../../../lib/use-now";

export function runDuration(run: Run, now: number): string {
  if (!run.started_at) return "—";
  return formatDuration(elapsedMs(run.started_at, run.finished_at, now));
}

/** Runs, newest first as the server orders them; durations tick while a run is live. */
export function RunsTable({ runs, caption = "Runs" }: { runs: Run[]; caption?: string }) {
  const now = useNow(1000, runs.some((run) => isRunActive(run.status)));
  if (runs.length === 0) return <p className="muted">No runs yet.</p>;
  return (
    <table className="table">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Run</th>
          <th scope="col">Status</th>
          <th scope="col">Target</th>
          <th scope="col">Host</th>
          <th scope="col">Plan</th>
          <th scope="col">Created</th>
          <th scope="col" className="num">Duration</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.id}>
            <th scope="row">
              <Link to={`/runs/${run.id}`}>#{run.id}</Link>
            </th>
            <td>
              <StatusBadge status={run.status} />
            </td>
            <td>
              {run.target.name} <span className="mono small muted">{run.target.path}</span>
            </td>
            <td>{run.host.name}</td>
            <td>{run.plan_name ?? <span className="muted">inline jobs ({run.jobs.length})</span>}</td>
            <td className="nowrap">
              <time dateTime={run.created_at} title={formatDateTime(run.created_at)}>
                {formatRelativeTime(run.created_at, now)}
              </time>
            </td>
            <td className="num">{runDuration(run, now)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
