import { Link } from "react-router";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FioJobList } from "../../../components/ui/fio-job-list";
import { PageHeader } from "../../../components/ui/page-header";
import { StatusBadge } from "../../../components/ui/status-badge";
import type { Run } from "../../../lib/api-types";
import { elapsedMs, formatDateTime, formatDuration } from "../../../lib/format";
import { isRunActive } from "../../../lib/status";
import { useNow } from "../../../lib/use-now";
import { useCancelRun } from "../api/cancel-run";
import { useRun } from "../api/get-run";
import { IopsByJobChart } from "./iops-by-job-chart";
import { LatencyPercentilesChart } from "./latency-percentiles-chart";
import { ResultSummary } from "./result-summary";

const KIND_LABELS = { directory: "directory", block_device: "block device" } as const;

/** One run, followed live (status, elapsed time) until it reaches a terminal state. */
export function RunDetail({ runId, canCancel = true }: { runId: number; canCancel?: boolean }) {
  const runQuery = useRun(runId);
  const run = runQuery.data;
  const active = run ? isRunActive(run.status) : false;
  const now = useNow(1000, active);

  if (!run) {
    return (
      <>
        <PageHeader title={`Run #${runId}`} />
        {runQuery.error ? (
          <ApiErrorAlert error={runQuery.error} title="Could not load this run" />
        ) : (
          <p className="muted">Loading run…</p>
        )}
        <p>
          <Link to="/runs">Back to runs</Link>
        </p>
      </>
    );
  }

  return (
    <>
      <PageHeader title={`Run #${run.id}`}>
        <span className="run-status">
          Status: <span role="status">{<StatusBadge status={run.status} />}</span>
        </span>
        {active && canCancel ? <CancelButton runId={run.id} /> : null}
      </PageHeader>
      {runQuery.error ? <ApiErrorAlert error={runQuery.error} title="Live updates failed" /> : null}
      <RunFacts run={run} now={now} />
      {run.error ? (
        <section className="panel panel-error" aria-labelledby="run-error-heading">
          <h2 id="run-error-heading">Error</h2>
          <pre className="code-block">{run.error}</pre>
        </section>
      ) : null}
      <section aria-labelledby="run-jobs-heading">
        <h2 id="run-jobs-heading">Job options</h2>
        <FioJobList jobs={run.jobs} caption={`fio jobs of run #${run.id}`} />
      </section>
      <RunResults run={run} />
    </>
  );
}

function CancelButton({ runId }: { runId: number }) {
  const cancelMutation = useCancelRun();
  return (
    <>
      <button
        type="button"
        className="button button-danger"
        disabled={cancelMutation.isPending}
        onClick={() => cancelMutation.mutate(runId)}
      >
        Cancel run
      </button>
      {cancelMutation.error ? <ApiErrorAlert error={cancelMutation.error} title="Could not cancel" /> : null}
    </>
  );
}

function RunFacts({ run, now }: { run: Run; now: number }) {
  const waiting = run.status === "queued" ? elapsedMs(run.created_at, null, now) : null;
  return (
    <dl className="facts">
      <div>
        <dt>Target</dt>
        <dd>
          {run.target.name} <span className="mono">{run.target.path}</span>{" "}
          <span className="muted small">({KIND_LABELS[run.target.kind] ?? run.target.kind})</span>
        </dd>
      </div>
      <div>
        <dt>Host</dt>
        <dd>{run.host.name}</dd>
      </div>
      <div>
        <dt>Plan</dt>
        <dd>{run.plan_name ?? <span className="muted">inline jobs</span>}</dd>
      </div>
      <div>
        <dt>Created</dt>
        <dd>{formatDateTime(run.created_at)}</dd>
      </div>
      <div>
        <dt>Started</dt>
        <dd>{formatDateTime(run.started_at)}</dd>
      </div>
      <div>
        <dt>Finished</dt>
        <dd>{formatDateTime(run.finished_at)}</dd>
      </div>
      <div>
        <dt>Elapsed</dt>
        <dd className="tabular">
          {run.started_at
            ? formatDuration(elapsedMs(run.started_at, run.finished_at, now))
            : waiting !== null
              ? `waiting ${formatDuration(waiting)}`
              : "—"}
        </dd>
      </div>
    </dl>
  );
}

function RunResults({ run }: { run: Run }) {
  const results = run.results ?? [];
  return (
    <section aria-labelledby="run-results-heading">
      <h2 id="run-results-heading">Results</h2>
      {results.length === 0 ? (
        <p className="muted">
          {isRunActive(run.status) ? "Figures appear here when the run ends." : "No results were reported for this run."}
        </p>
      ) : (
        <>
          <p className="muted small">
            Mean and max are total latency (lat); percentiles are completion latency (clat). Sizes in binary units.
          </p>
          {results.map((result) => (
            <ResultSummary key={result.id} result={result} />
          ))}
          <div className="charts">
            <LatencyPercentilesChart results={results} />
            {results.length > 1 ? <IopsByJobChart results={results} /> : null}
          </div>
        </>
      )}
    </section>
  );
}
