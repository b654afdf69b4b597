import { useMemo, useState } from "react";
import { Link, useNavigate } from "react-router";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { ConfirmAction } from "../../../components/ui/confirm-action";
import { FioJobList } from "../../../components/ui/fio-job-list";
import { PageHeader } from "../../../components/ui/page-header";
import { StatusBadge } from "../../../components/ui/status-badge";
import { VerdictStrip } from "../../../components/ui/verdict-strip";
import { sharedFilesLabel } from "../../../components/ui/shared-files-field";
import type { Run } from "../../../lib/api/types";
import { elapsedMs, formatDateTime, formatDuration, formatWorkerCpu } from "../../../lib/format";
import { isRunActive } from "../../../lib/status";
import { useNow } from "../../../lib/use-now";
import { useCancelRun } from "../api/cancel-run";
import { awaitsPartialResult, useRun } from "../api/get-run";
import { PROGRESS_POLL_MS, useRunProgress } from "../api/get-run-progress";
import { useRunAgain } from "../api/run-again";
import { useRunEvents } from "../api/run-events";
import { useRunVerdict } from "../api/get-run-verdict";
import { AggregateSummary } from "./aggregate-summary";
import { HostProgressBars, runHosts } from "./host-progress-bars";
import { IopsByJobChart } from "./iops-by-job-chart";
import { LatencyPercentilesChart } from "./latency-percentiles-chart";
import { mergeProgress, type HostSeries } from "./progress-series";
import { ResultSummary } from "./result-summary";
import { RunHostsTable } from "./run-hosts-table";
import { RunLabelEditor } from "./run-label-editor";
import { RunMounts } from "./run-mounts";
import { ThroughputChart } from "./throughput-chart";

const KIND_LABELS = { directory: "directory", block_device: "block device" } as const;

/** One run, followed live (status, progress per host) until it reaches a terminal state. */
export function RunDetail({ runId, canCancel = true }: { runId: number; canCancel?: boolean }) {
  // Whether the event stream is open: status changes are pushed, polling only backs it up.
  const [streaming, setStreaming] = useState(false);
  const runQuery = useRun(runId, { streaming });
  const run = runQuery.data;
  const active = run ? isRunActive(run.status) : false;
  const now = useNow(1000, active);
  const liveSamples = useRunEvents(runId, active, setStreaming);
  const progressQuery = useRunProgress(runId, {
    enabled: Boolean(run && run.status !== "queued"),
    final: !active,
    pollMs: active && !streaming ? PROGRESS_POLL_MS : false,
  });
  const storedHosts = progressQuery.data?.hosts;
  const series = useMemo(() => mergeProgress(storedHosts, liveSamples), [storedHosts, liveSamples]);

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
        {!active && canCancel ? <RunAgainButton runId={run.id} /> : null}
      </PageHeader>
      <RunLabelEditor run={run} canEdit={canCancel} />
      {runQuery.error ? <ApiErrorAlert error={runQuery.error} title="Live updates failed" /> : null}
      <RunVerdict run={run} />
      {run.status === "running" ? <LiveProgress run={run} series={series} streaming={streaming} /> : null}
      {run.error ? (
        <section className="panel panel-error" aria-labelledby="run-error-heading">
          <h2 id="run-error-heading">Error</h2>
          <pre className="code-block">{run.error}</pre>
        </section>
      ) : null}
      <RunResults run={run} />
      {!active && series.some((host) => host.samples.length > 0) ? (
        <section aria-labelledby="run-series-heading">
          <h2 id="run-series-heading">Throughput over time</h2>
          <ThroughputChart title="Per-second throughput" hosts={series} />
        </section>
      ) : null}
      {!active && progressQuery.error ? (
        <ApiErrorAlert error={progressQuery.error} title="Could not load the per-second series" />
      ) : null}
      <RunMetadata run={run} now={now} />
    </>
  );
}

/** Where and how it ran: after the figures (a reader wants the verdict first). */
function RunMetadata({ run, now }: { run: Run; now: number }) {
  return (
    <section aria-labelledby="run-metadata-heading">
      <h2 id="run-metadata-heading">How it ran</h2>
      <RunFacts run={run} now={now} />
      {(run.assignments?.length ?? 0) > 1 ? (
        <section aria-labelledby="run-hosts-heading">
          <h2 id="run-hosts-heading">Hosts</h2>
          <RunHostsTable assignments={run.assignments ?? []} />
        </section>
      ) : null}
      <RunMounts assignments={run.assignments ?? []} />
      <section aria-labelledby="run-jobs-heading">
        <h2 id="run-jobs-heading">Job options</h2>
        <FioJobList jobs={run.jobs} caption={`fio jobs of run #${run.id}`} />
      </section>
    </section>
  );
}

/**
 * The verdict strip, once the run has results, and the way to the comparison with the previous run
 * (on every run page: the compare page says when there is none).
 */
function RunVerdict({ run }: { run: Run }) {
  const resultCount = run.results?.length ?? 0;
  const verdictQuery = useRunVerdict(run.id, { enabled: resultCount > 0, resultCount });
  const previous = verdictQuery.data?.previous_run;
  return (
    <>
      {verdictQuery.data ? <VerdictStrip verdict={verdictQuery.data} /> : null}
      {verdictQuery.error ? <ApiErrorAlert error={verdictQuery.error} title="Could not load the verdict" /> : null}
      <p className="small">
        <Link to={previous ? previous.compare_path : `/compare?previous_run=${run.id}`}>Compare with the previous run</Link>
        {run.sweep ? (
          <>
            {" · "}
            <Link to={curvesPath(run.id, run.sweep.axes)}>Curves of this sweep</Link>
            <span className="muted">
              {" "}
              ({run.sweep.measured_points} of {run.sweep.points.length} points measured)
            </span>
          </>
        ) : null}
      </p>
    </>
  );
}

/** The Curves page for a sweep run, along its fastest axis (the other one, if any, makes the heat map's rows). */
function curvesPath(runId: number, axes: string[]): string {
  const axis = axes[axes.length - 1] ?? "iodepth";
  return `/curves?${new URLSearchParams({ run_ids: String(runId), axis }).toString()}`;
}

/** While fio runs: a bar per host and the figures of every second as they arrive. */
function LiveProgress({ run, series, streaming }: { run: Run; series: HostSeries[]; streaming: boolean }) {
  return (
    <section className="panel live-progress" aria-labelledby="run-live-heading">
      <h2 id="run-live-heading">Live progress</h2>
      <p className="small muted">
        {streaming
          ? "Updated as each host reports, every second."
          : "Not connected to live updates: the page checks for news every few seconds."}
      </p>
      <HostProgressBars hosts={runHosts(run.assignments, run.host.name)} series={series} />
      <ThroughputChart title="Live throughput" hosts={series} />
    </section>
  );
}

/** Cancel, asked once more: fio stops on every host and what it measured so far is kept. */
function CancelButton({ runId }: { runId: number }) {
  const cancelMutation = useCancelRun();
  return (
    <>
      <ConfirmAction
        label="Cancel run"
        groupLabel={`Cancel run #${runId}?`}
        question={
          <>
            Stop run #{runId}? fio stops on every host; what it measured so far is kept, marked partial.
          </>
        }
        confirmLabel="Stop the run"
        disabled={cancelMutation.isPending}
        onConfirm={() => cancelMutation.mutate(runId)}
      />
      {cancelMutation.error ? <ApiErrorAlert error={cancelMutation.error} title="Could not cancel" /> : null}
    </>
  );
}

/** The same jobs on the same target and hosts (and plan version), opened at once. */
function RunAgainButton({ runId }: { runId: number }) {
  const again = useRunAgain();
  const navigate = useNavigate();
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={again.isPending}
        onClick={() => again.mutate({ id: runId }, { onSuccess: (run) => navigate(`/runs/${run.id}`) })}
      >
        Run again
      </button>
      {again.error ? <ApiErrorAlert error={again.error} title="Could not run it again" /> : null}
    </>
  );
}

/** What a sweep run swept, and whether it preconditioned (rows of the facts list). */
function SweepFacts({ run }: { run: Run }) {
  return (
    <>
      {run.sweep ? (
        <div>
          <dt>Sweep</dt>
          <dd>
            {run.sweep.axes.join(" × ")}, {run.sweep.points.length} points{run.sweep.shuffled ? " (shuffled)" : ""}
          </dd>
        </div>
      ) : null}
      {run.precondition ? (
        <div>
          <dt>Preconditioning</dt>
          <dd>the working set was filled sequentially, twice over, before measuring</dd>
        </div>
      ) : null}
    </>
  );
}

function RunFacts({ run, now }: { run: Run; now: number }) {
  const waiting = run.status === "queued" ? elapsedMs(run.created_at, null, now) : null;
  const hostCount = run.assignments?.length ?? 1;
  const workerCpu = (run.assignments ?? []).flatMap((a) =>
    typeof a.worker_cpu_percent === "number" ? [a.worker_cpu_percent] : [],
  );
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
        <dt>{hostCount > 1 ? "Hosts" : "Host"}</dt>
        <dd>
          {run.host.name}
          {hostCount > 1 ? <span className="muted"> + {hostCount - 1} more</span> : null}
        </dd>
      </div>
      <div>
        <dt>Plan</dt>
        <dd>
          {run.plan_name ?? <span className="muted">inline jobs</span>}
          {run.plan_version ? <span className="muted"> (version {run.plan_version})</span> : null}
        </dd>
      </div>
      <SweepFacts run={run} />
      <div>
        <dt>Created</dt>
        <dd>{formatDateTime(run.created_at)}</dd>
      </div>
      <div>
        <dt>Started</dt>
        <dd>{formatDateTime(run.started_at)}</dd>
      </div>
      {hostCount > 1 && run.target.kind === "directory" ? (
        <div>
          <dt>Files</dt>
          <dd>{sharedFilesLabel(run.shared_files ?? false)}</dd>
        </div>
      ) : null}
      {run.start_at && hostCount > 1 ? (
        <div>
          <dt>Common start</dt>
          <dd>{formatDateTime(run.start_at)}</dd>
        </div>
      ) : null}
      <div>
        <dt>Finished</dt>
        <dd>{formatDateTime(run.finished_at)}</dd>
      </div>
      {workerCpu.length > 0 ? (
        <div>
          <dt>Worker CPU during fio</dt>
          <dd className="tabular" title="The storbench worker's own CPU use while fio ran: how much it could disturb fio">
            {formatWorkerCpu(Math.max(...workerCpu))}
            {workerCpu.length > 1 ? <span className="muted"> (busiest host)</span> : null}
          </dd>
        </div>
      ) : null}
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
          {isRunActive(run.status)
            ? "Figures appear here when the run ends."
            : awaitsPartialResult(run)
              ? "Waiting for what the hosts measured before they stopped…"
              : "No results were reported for this run."}
        </p>
      ) : (
        <>
          <p className="muted small">
            Mean and max are total latency (lat); percentiles are completion latency (clat). Sizes in binary units.
          </p>
          {run.aggregate ? <AggregateSummary aggregate={run.aggregate} /> : null}
          {results.map((result) => (
            <ResultSummary key={result.id} result={result} repetitions={run.repetitions} />
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
