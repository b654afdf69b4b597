import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { StatusBadge } from "../../../components/ui/status-badge";
import type { Run } from "../../../lib/api/types";
import { elapsedMs, formatDateTime, formatDuration, formatRelativeTime } from "../../../lib/format";
import { isRunActive } from "../../../lib/status";
import { useNow } from "../../../lib/use-now";
import { useRunAgain } from "../api/run-again";
import { RunHeadlineFigure } from "./run-headline";

export function runDuration(run: Run, now: number): string {
  if (!run.started_at) return "—";
  return formatDuration(elapsedMs(run.started_at, run.finished_at, now));
}

interface RunsTableProps {
  runs: Run[];
  caption?: string;
  /** Rows get "Run again" and a choice for comparison (members and owners). */
  canStart?: boolean;
}

/** Above the table: a link to compare the chosen runs' results, once there are two to compare. */
function CompareBar({ chosen }: { chosen: Run[] }) {
  const resultIds = chosen.flatMap((run) => run.result_ids ?? []);
  return (
    <div className="button-row compare-bar">
      {resultIds.length >= 2 ? (
        <Link className="button button-small" to={`/compare?ids=${resultIds.join(",")}`}>
          Compare {chosen.length} runs
        </Link>
      ) : (
        <span className="muted small">Select runs with results to compare them.</span>
      )}
    </div>
  );
}

function RunsTableHead({ canStart }: { canStart: boolean }) {
  return (
    <thead>
      <tr>
        {canStart ? (
          <th scope="col">
            <span className="sr-only">Compare</span>
          </th>
        ) : null}
        <th scope="col">Run</th>
        <th scope="col">Status</th>
        <th scope="col">Label</th>
        <th scope="col" className="num">
          Headline
        </th>
        <th scope="col">Target</th>
        <th scope="col">Host</th>
        <th scope="col">Plan</th>
        <th scope="col">Created</th>
        <th scope="col" className="num">
          Duration
        </th>
        {canStart ? (
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}

/** What a run is: its label and note, headline figure, where it ran and from which plan. */
function RunCells({ run, now }: { run: Run; now: number }) {
  return (
    <>
      <th scope="row">
        <Link to={`/runs/${run.id}`}>#{run.id}</Link>
      </th>
      <td>
        <StatusBadge status={run.status} />
      </td>
      <td>
        {run.label ?? <span className="muted">—</span>}
        {run.note ? <div className="small muted">{run.note}</div> : null}
      </td>
      <td className="num nowrap">
        <RunHeadlineFigure run={run} />
      </td>
      <td>
        {run.target.name} <span className="mono small muted">{run.target.path}</span>
      </td>
      <td>{run.host.name}</td>
      <td>
        {run.plan_name ?? <span className="muted">inline jobs ({run.jobs.length})</span>}
        {run.plan_version ? <span className="muted small"> v{run.plan_version}</span> : null}
      </td>
      <td className="nowrap">
        <time dateTime={run.created_at} title={formatDateTime(run.created_at)}>
          {formatRelativeTime(run.created_at, now)}
        </time>
      </td>
      <td className="num">{runDuration(run, now)}</td>
    </>
  );
}

interface RunActions {
  isSelected: (run: Run) => boolean;
  toggle: (run: Run, checked: boolean) => void;
  runAgain: (run: Run) => void;
  againPending: boolean;
}

/** One run, with (for members and owners) its compare checkbox and "Run again". */
function RunRow({ run, now, actions }: { run: Run; now: number; actions: RunActions | null }) {
  return (
    <tr>
      {actions ? (
        <td>
          <input
            type="checkbox"
            aria-label={`Select run #${run.id} to compare`}
            checked={actions.isSelected(run)}
            disabled={(run.result_ids ?? []).length === 0}
            onChange={(event) => actions.toggle(run, event.target.checked)}
          />
        </td>
      ) : null}
      <RunCells run={run} now={now} />
      {actions ? (
        <td>
          <button
            type="button"
            className="button button-small"
            aria-label={`Run #${run.id} again`}
            disabled={actions.againPending}
            onClick={() => actions.runAgain(run)}
          >
            Run again
          </button>
        </td>
      ) : null}
    </tr>
  );
}

/** Runs, newest first as the server orders them; durations tick while a run is live. */
export function RunsTable({ runs, caption = "Runs", canStart = false }: RunsTableProps) {
  const now = useNow(1000, runs.some((run) => isRunActive(run.status)));
  const [selected, setSelected] = useState<number[]>([]);
  const navigate = useNavigate();
  const again = useRunAgain();
  if (runs.length === 0) return <p className="muted">No runs yet.</p>;
  const actions: RunActions | null = canStart
    ? {
        isSelected: (run) => selected.includes(run.id),
        toggle: (run, checked) =>
          setSelected((current) => (checked ? [...current, run.id] : current.filter((id) => id !== run.id))),
        runAgain: (run) => again.mutate({ id: run.id }, { onSuccess: (next) => navigate(`/runs/${next.id}`) }),
        againPending: again.isPending,
      }
    : null;
  return (
    <>
      {canStart ? <CompareBar chosen={runs.filter((run) => selected.includes(run.id))} /> : null}
      {again.error ? <ApiErrorAlert error={again.error} title="Could not run it again" /> : null}
      <div className="table-scroll">
        <table className="table">
          <caption className="sr-only">{caption}</caption>
          <RunsTableHead canStart={canStart} />
          <tbody>
            {runs.map((run) => (
              <RunRow key={run.id} run={run} now={now} actions={actions} />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
