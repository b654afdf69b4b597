"""Runs and assignments as the API shows them: to users (RunOut, RunProgress) and to workers."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Row
from sqlalchemy.orm import Session

from storbench_api.fio_tools.schemas import jobs_out
from storbench_api.hosts.mounts import describe_mount
from storbench_api.models import Assignment, Result, Run, Target, TargetKind
from storbench_api.results import service as results_service
from storbench_api.runs import repository
from storbench_api.runs.aggregate import aggregate_run
from storbench_api.runs.schemas import (
    Aggregate,
    AssignmentOut,
    HostProgress,
    HostRef,
    ProgressSampleOut,
    RunHeadline,
    RunOut,
    RunProgress,
    SweepOut,
    TargetRef,
)
from storbench_api.runs.sweep import describe_sweep, expand_jobs
from storbench_api.security import keyed_name
from storbench_api.settings import get_settings
from storbench_fio.precondition import with_precondition
from storbench_protocol.assignments import AssignmentTarget, WorkerAssignment


def describe_runs(db: Session, runs: Sequence[Run], with_results: bool) -> list[RunOut]:
    """Runs as the API shows them, with results (and the multi-host aggregate) when asked."""
    results_by_run: dict[int, list[Result]] = {}
    if with_results:
        for result in repository.results_of_runs(db, [r.id for r in runs]):
            results_by_run.setdefault(result.run_id or 0, []).append(result)
    headline_rows: dict[int, list[Row[Any]]] = {}
    for row in repository.headline_rows(db, [r.id for r in runs]):
        headline_rows.setdefault(row.run_id, []).append(row)
    described = []
    for run in runs:
        out = _describe(run, results_by_run.get(run.id, []))
        rows = headline_rows.get(run.id, [])
        out.headline = headline(rows, job_count=len(run.jobs))
        out.result_ids = sorted({row.id for row in rows})
        if with_results and run.kept_aggregate is not None:
            out.aggregate = Aggregate.model_validate(run.kept_aggregate)
        elif with_results and len(run.assignments) > 1 and run.status.is_terminal:
            samples = repository.progress_samples(db, [a.id for a in run.assignments])
            out.aggregate = aggregate_run(run.assignments, results_by_run.get(run.id, []), samples)
        described.append(out)
    return described


def aggregate_to_keep(db: Session, run: Run) -> dict[str, Any] | None:
    """The multi-host aggregate of a finished run as stored before its series go (None: none)."""
    if len(run.assignments) < 2 or not run.status.is_terminal:
        return None
    samples = repository.progress_samples(db, [a.id for a in run.assignments])
    aggregate = aggregate_run(run.assignments, repository.results_of_runs(db, [run.id]), samples)
    return aggregate.model_dump(mode="json") if aggregate is not None else None


def describe_run(db: Session, run: Run, with_results: bool = True) -> RunOut:
    """One run as the API shows it."""
    return describe_runs(db, [run], with_results)[0]


# From this block size on a job measures throughput (as the advisor and vendors read it).
_THROUGHPUT_BLOCK_BYTES = 64 * 1024


def headline(rows: Sequence[Row[Any]], job_count: int) -> RunHeadline | None:
    """The run's first job, every host, clone and direction summed, the mean of its repetitions.

    Whether it is an IOPS or a throughput figure follows the blocks it measured (bytes per I/O).
    """
    if not rows:
        return None
    first = min(rows, key=lambda r: r.job_index).job_name
    per_repetition: dict[int, tuple[float, float]] = {}
    p99s: list[float] = []
    partial = False
    for row in rows:
        if row.job_name != first:
            continue
        iops, bw = per_repetition.get(row.repetition, (0.0, 0.0))
        per_repetition[row.repetition] = (iops + (row.iops or 0.0), bw + (row.bw_bytes or 0.0))
        if row.clat_p99_ns is not None:
            p99s.append(row.clat_p99_ns)
        partial = partial or row.partial
    count = len(per_repetition)
    iops = sum(i for i, _ in per_repetition.values()) / count
    bw = sum(b for _, b in per_repetition.values()) / count
    throughput = iops > 0 and bw / iops >= _THROUGHPUT_BLOCK_BYTES
    return RunHeadline(
        job_name=first,
        metric="throughput" if throughput else "iops",
        iops=iops,
        bw_bytes=bw,
        p99_ns=max(p99s) if p99s else None,
        jobs=job_count,
        partial=partial,
    )


def _assignment_out(assignment: Assignment) -> AssignmentOut:
    return AssignmentOut(
        host=HostRef(id=assignment.host.id, name=assignment.host.name),
        status=assignment.status,
        ready_at=assignment.ready_at,
        started_at=assignment.started_at,
        fio_started_at=assignment.worker_info.fio_started_at,
        finished_at=assignment.finished_at,
        worker_cpu_percent=assignment.worker_info.worker_cpu_percent,
        error=assignment.error,
        mount=describe_mount(mount) if (mount := assignment.worker_info.mount) is not None else None,
    )


def _describe(run: Run, results: Sequence[Result]) -> RunOut:
    target: Target = run.target
    return RunOut(
        id=run.id,
        status=run.status,
        plan_id=run.plan_id,
        plan_name=run.plan_name,
        plan_version=run.plan_version,
        label=run.label,
        note=run.note,
        target=TargetRef(id=target.id, name=target.name, path=target.path, kind=target.kind),
        host=HostRef(id=target.host.id, name=target.host.name),
        jobs=jobs_out(run.jobs),
        shared_files=run.shared_files,
        repetitions=run.repetitions,
        sweep=_sweep_out(run, results),
        precondition=run.precondition,
        created_at=run.created_at,
        started_at=run.started_at,
        finished_at=run.finished_at,
        error=run.error,
        start_at=run.start_at,
        series_pruned_at=run.series_pruned_at,
        assignments=[_assignment_out(a) for a in run.assignments],
        results=[results_service.describe(r) for r in results],
    )


def _sweep_out(run: Run, results: Sequence[Result]) -> SweepOut | None:
    if not run.sweep:
        return None
    return describe_sweep(run.sweep, results, run.repetitions)


def run_progress(db: Session, run: Run, after_id: int = 0) -> RunProgress:
    """The run's per-second series per host (only samples newer than after_id)."""
    samples = repository.progress_samples(db, [a.id for a in run.assignments], after_id)
    by_assignment: dict[int, list[ProgressSampleOut]] = {}
    for sample in samples:
        by_assignment.setdefault(sample.assignment_id, []).append(
            ProgressSampleOut.model_validate(sample, from_attributes=True)
        )
    return RunProgress(
        run_id=run.id,
        status=run.status,
        hosts=[
            HostProgress(
                host_name=a.host.name,
                assignment_id=a.id,
                status=a.status,
                samples=by_assignment.get(a.id, []),
            )
            for a in run.assignments
        ],
    )


# ---- to workers ----------------------------------------------------------------------------


def worker_assignment(assignment: Assignment) -> WorkerAssignment:
    """The work a host must do for one run: where, which jobs, and its part in a multi-host run."""
    run = assignment.run
    return WorkerAssignment(
        id=assignment.id,
        run_id=assignment.run_id,
        status=assignment.status,
        target=AssignmentTarget(
            path=run.target.path,
            kind="block_device" if run.target.kind == TargetKind.block_device else "directory",
            destructive=run.target.destructive,
            confirmed_destructive=run.confirmed_destructive,
        ),
        jobs=jobs_to_run(run),
        shared_files=run.shared_files,
        lays_out=lays_out_files(assignment),
        scratch_name=scratch_name(assignment),
        host_count=len(run.assignments),
        # A sweep's jobs hold each point's repetitions already (runs.sweep), as do preconditioned
        # runs' (the fill runs once, not per repetition).
        repetitions=1 if run.sweep or run.precondition else run.repetitions,
    )


def jobs_to_run(run: Run) -> list[dict[str, Any]]:
    """The jobs a host runs: the run's, behind the fill of its working set when it preconditions."""
    if not run.precondition:
        return run.jobs
    planned = run.sweep["planned_jobs"] if run.sweep else run.jobs
    measured = run.jobs if run.sweep else expand_jobs([run.jobs], run.repetitions)
    return with_precondition(planned, measured, int(get_settings().max_runtime.total_seconds()))


def scratch_name(assignment: Assignment) -> str:
    """The run directory's name: fresh per host (or one per run with shared files), not guessable.

    Anyone who can write in the target could plant links under a name known in advance; this one
    is derived from the service's secret.
    """
    run = assignment.run
    own = "shared" if run.shared_files else f"a{assignment.id}"
    token = keyed_name(get_settings().secret_key, f"run-directory:{run.id}:{own}")
    return f"storbench-run{run.id}-{own}-{token}"


def lays_out_files(assignment: Assignment) -> bool:
    """Whether this host creates the files: every host its own, or the first host the shared set."""
    run = assignment.run
    return not run.shared_files or assignment.id == min(a.id for a in run.assignments)
